// The agent feed's tables on either backend (./sql.ts): the feed itself, each agent's contracts,
// each contract's projection state, and webhook subscriptions. Ids are one increasing sequence:
// on PostgreSQL every append takes one advisory lock, so ids commit in order and a reader that has
// seen id n never later finds an id below n appear.
import { postgresDb, sqliteDb, type SqlDb, type SqlRunner } from './sql';
import { dataFile } from '../data-files';
import { createTables, openPostgresPool, type PostgresPool } from '../postgres/pool';
import type { DatabaseConfig } from '../index';
import type {
  AgentContractRow,
  AgentContractsQuery,
  ContractProjection,
  FeedCommit,
  FeedEntry,
  WebhookSubscription,
} from './types';
import type { AgentRole } from '../../workflows/rules/next-action';
import { refilled, retryAfterMs, type BucketRule, type TakeResult } from '../rate-limit';

/** Arbitrary constant: serializes feed appends on PostgreSQL. */
const APPEND_LOCK_KEY = 4_242_117;
/** Arbitrary constant: serializes the webhook host buckets' takes on PostgreSQL. */
const HOST_BUCKET_LOCK_KEY = 4_242_118;
/** A claim is kept this long: longer than a delivery's whole retry budget (25 hours). */
const CLAIM_KEPT_MS = 48 * 3_600_000;

function ddl(dialect: SqlDb['dialect']): string[] {
  const id = dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGSERIAL PRIMARY KEY';
  return [
    `CREATE TABLE IF NOT EXISTS agent_feed (
      id ${id},
      agent TEXT NOT NULL,
      contract_id TEXT NOT NULL,
      dedup TEXT NOT NULL UNIQUE,
      body TEXT NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS agent_feed_by_agent ON agent_feed (agent, id)',
    `CREATE TABLE IF NOT EXISTS agent_contracts (
      agent TEXT NOT NULL,
      contract_id TEXT NOT NULL,
      role TEXT NOT NULL,
      since BIGINT NOT NULL,
      PRIMARY KEY (agent, contract_id, role)
    )`,
    `CREATE TABLE IF NOT EXISTS feed_contracts (
      contract_id TEXT PRIMARY KEY,
      projected INTEGER NOT NULL,
      closed INTEGER NOT NULL,
      hot_until BIGINT NOT NULL,
      due_at BIGINT
    )`,
    `CREATE TABLE IF NOT EXISTS feed_looks (
      contract_id TEXT PRIMARY KEY,
      next_look BIGINT NOT NULL,
      gap BIGINT NOT NULL
    )`,
    `CREATE TABLE IF NOT EXISTS webhook_subscriptions (
      id TEXT PRIMARY KEY,
      agent TEXT NOT NULL,
      url TEXT NOT NULL,
      secret TEXT NOT NULL,
      created_at TEXT NOT NULL,
      deleted INTEGER NOT NULL,
      delivered_through BIGINT NOT NULL,
      failures INTEGER NOT NULL,
      last_error TEXT,
      last_failure_at TEXT,
      last_success_at TEXT,
      abandoned INTEGER NOT NULL
    )`,
    'CREATE INDEX IF NOT EXISTS webhook_subscriptions_by_agent ON webhook_subscriptions (agent)',
    // One delivery per event per URL: the first subscription to claim (event, url) posts it.
    `CREATE TABLE IF NOT EXISTS webhook_claims (
      event_key TEXT NOT NULL,
      url TEXT NOT NULL,
      subscription_id TEXT NOT NULL,
      claimed_at BIGINT NOT NULL,
      PRIMARY KEY (event_key, url)
    )`,
    'CREATE INDEX IF NOT EXISTS webhook_claims_by_age ON webhook_claims (claimed_at)',
    // The per-target-host delivery rate, a token bucket per host shared by every worker.
    `CREATE TABLE IF NOT EXISTS webhook_host_buckets (
      host TEXT PRIMARY KEY,
      tokens ${dialect === 'sqlite' ? 'REAL' : 'DOUBLE PRECISION'} NOT NULL,
      refilled_at BIGINT NOT NULL
    )`,
  ];
}

interface SubscriptionRow {
  id: string;
  agent: string;
  url: string;
  secret: string;
  created_at: string;
  delivered_through: number | string;
  failures: number;
  last_error: string | null;
  last_failure_at: string | null;
  last_success_at: string | null;
  abandoned: number;
}

function subscriptionFromRow(r: SubscriptionRow): WebhookSubscription {
  return {
    id: r.id,
    agent: r.agent,
    url: r.url,
    secret: r.secret,
    createdAt: r.created_at,
    deliveredThrough: Number(r.delivered_through),
    failures: Number(r.failures),
    lastError: r.last_error,
    lastFailureAt: r.last_failure_at,
    lastSuccessAt: r.last_success_at,
    abandoned: Number(r.abandoned),
  };
}

function entryFromRow(r: { id: number | string; body: string }): FeedEntry {
  return { id: String(r.id), ...(JSON.parse(r.body) as Omit<FeedEntry, 'id'>) };
}

/** The gaps between two looks at a contract that shows nothing new (ms). */
export interface LookPace {
  shortestMs: number;
  longestMs: number;
}

export interface FeedStore {
  /** Marks a contract as just changed (or new): the projector looks at it until `hotUntil` (ms). */
  touch(contractId: string, hotUntil: number): Promise<void>;
  projection(contractId: string): Promise<ContractProjection | undefined>;
  /** Writes a projection if nobody wrote one since it read `expected`; the agents that got entries. */
  commit(commit: FeedCommit): Promise<{ committed: boolean; agents: string[] }>;
  /** Open contracts to look at now: hot ones and those whose due time passed, whose next look is due. */
  dueContracts(now: number, limit: number): Promise<string[]>;
  /**
   * Takes the contract's next look for this caller if it is due (no other projector took it), and sets the
   * one after as for a look that finds nothing new: `pace.shortestMs` after a touch or the first look, else
   * twice the last gap, at most `pace.longestMs`. The gap it set; undefined when the look was not due.
   */
  claimLook(contractId: string, now: number, pace: LookPace): Promise<{ gap: number } | undefined>;
  /** After a look that found something new: the next look `gap` from `now`, and the gaps grow from there. */
  lookChanged(contractId: string, now: number, gap: number): Promise<void>;
  /** Every open contract known to the feed, in contract id order, after `after`. */
  openContracts(limit: number, after?: string): Promise<string[]>;
  /** An agent's entries after id `after`, oldest first. */
  read(agent: string, after: number, limit: number): Promise<FeedEntry[]>;
  agentContracts(query: AgentContractsQuery): Promise<AgentContractRow[]>;

  addSubscription(
    sub: Pick<WebhookSubscription, 'id' | 'agent' | 'url' | 'secret' | 'createdAt'>,
  ): Promise<void>;
  /** The agent's live subscriptions, oldest first. */
  subscriptions(agent: string): Promise<WebhookSubscription[]>;
  /** A live subscription. */
  subscription(id: string): Promise<WebhookSubscription | undefined>;
  /** True when it deleted a live subscription of this agent. */
  deleteSubscription(agent: string, id: string): Promise<boolean>;
  /** The agents holding a live subscription to exactly this URL. */
  agentsAt(url: string): Promise<string[]>;
  /** Live subscriptions of any of these agents. */
  subscriptionsOf(agents: readonly string[]): Promise<WebhookSubscription[]>;
  /** A delivery answered 2xx: the cursor moves (never back) and the failure count resets. */
  delivered(id: string, entryId: number, at: string): Promise<void>;
  failed(id: string, error: string, at: string): Promise<void>;
  /** The retry budget ran out for this entry: the cursor moves past it, counted as abandoned. */
  abandoned(id: string, entryId: number): Promise<void>;
  /**
   * Claims the delivery of event `eventKey` to `url` for subscription `id`: true when it is this
   * subscription's to post (it claimed it now or earlier), false when another subscription has it.
   */
  claimDelivery(eventKey: string, url: string, id: string, now: number): Promise<boolean>;
  /** Takes a token of `host`'s delivery bucket (refilled to `now` first); atomic across processes. */
  takeHostToken(host: string, rule: BucketRule, now: number): Promise<TakeResult>;
  close(): Promise<void>;
}

async function insertEntries(q: SqlRunner, commit: FeedCommit): Promise<string[]> {
  const agents = new Set<string>();
  for (const { dedup, ...entry } of commit.entries) {
    const added = await q.run(
      'INSERT INTO agent_feed (agent, contract_id, dedup, body) VALUES (?, ?, ?, ?) ON CONFLICT (dedup) DO NOTHING',
      [entry.agent, entry.contractId, dedup, JSON.stringify(entry)],
    );
    if (added > 0) agents.add(entry.agent);
  }
  for (const r of commit.roles) {
    await q.run(
      'INSERT INTO agent_contracts (agent, contract_id, role, since) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [r.agent, commit.contractId, r.role, r.since],
    );
  }
  return [...agents];
}

export function feedStoreOn(db: SqlDb): FeedStore {
  let claims = 0;
  const subscriptionColumns =
    'id, agent, url, secret, created_at, delivered_through, failures, last_error, last_failure_at, last_success_at, abandoned';
  return {
    touch(contractId, hotUntil) {
      return db.tx(async (q) => {
        await q.run(
          `INSERT INTO feed_contracts (contract_id, projected, closed, hot_until, due_at) VALUES (?, 0, 0, ?, NULL)
           ON CONFLICT (contract_id) DO UPDATE SET hot_until = excluded.hot_until
           WHERE feed_contracts.hot_until < excluded.hot_until`,
          [contractId, hotUntil],
        );
        await q.run(
          `INSERT INTO feed_looks (contract_id, next_look, gap) VALUES (?, 0, 0)
           ON CONFLICT (contract_id) DO UPDATE SET next_look = 0, gap = 0`,
          [contractId],
        );
      });
    },
    async projection(contractId) {
      const rows = await db.all<{ projected: number; closed: number }>(
        'SELECT projected, closed FROM feed_contracts WHERE contract_id = ?',
        [contractId],
      );
      const row = rows[0];
      return row && { projected: Number(row.projected), closed: Number(row.closed) === 1 };
    },
    commit(commit) {
      return db.tx(async (q) => {
        const current = await q.all<{ projected: number }>(
          'SELECT projected FROM feed_contracts WHERE contract_id = ?',
          [commit.contractId],
        );
        const projected = current[0] === undefined ? 0 : Number(current[0].projected);
        if (projected !== commit.expected) return { committed: false, agents: [] };
        if (current[0] === undefined) {
          await q.run(
            'INSERT INTO feed_contracts (contract_id, projected, closed, hot_until, due_at) VALUES (?, 0, 0, 0, NULL)',
            [commit.contractId],
          );
        }
        const agents = await insertEntries(q, commit);
        await q.run('UPDATE feed_contracts SET projected = ?, closed = ?, due_at = ? WHERE contract_id = ?', [
          commit.projected,
          commit.closed ? 1 : 0,
          commit.dueAt,
          commit.contractId,
        ]);
        return { committed: true, agents };
      }, APPEND_LOCK_KEY);
    },
    async dueContracts(now, limit) {
      const rows = await db.all<{ contract_id: string }>(
        `SELECT c.contract_id FROM feed_contracts c LEFT JOIN feed_looks l ON l.contract_id = c.contract_id
         WHERE c.closed = 0 AND (c.hot_until >= ? OR c.due_at <= ?) AND COALESCE(l.next_look, 0) <= ?
         ORDER BY c.contract_id LIMIT ?`,
        [now, now, now, limit],
      );
      return rows.map((r) => r.contract_id);
    },
    async claimLook(contractId, now, pace) {
      const quietGap = `CASE WHEN feed_looks.gap = 0 THEN ? WHEN feed_looks.gap * 2 > ? THEN ? ELSE feed_looks.gap * 2 END`;
      const rows = await db.all<{ gap: number | string }>(
        `INSERT INTO feed_looks (contract_id, next_look, gap) VALUES (?, ?, ?)
         ON CONFLICT (contract_id) DO UPDATE SET gap = ${quietGap}, next_look = ? + ${quietGap}
         WHERE feed_looks.next_look <= ?
         RETURNING gap`,
        [
          contractId,
          now + pace.shortestMs,
          pace.shortestMs,
          ...[pace.shortestMs, pace.longestMs, pace.longestMs],
          now,
          ...[pace.shortestMs, pace.longestMs, pace.longestMs],
          now,
        ],
      );
      return rows[0] && { gap: Number(rows[0].gap) };
    },
    async lookChanged(contractId, now, gap) {
      await db.run('UPDATE feed_looks SET next_look = ?, gap = ? WHERE contract_id = ?', [
        now + gap,
        gap,
        contractId,
      ]);
    },
    async openContracts(limit, after = '') {
      const rows = await db.all<{ contract_id: string }>(
        'SELECT contract_id FROM feed_contracts WHERE closed = 0 AND contract_id > ? ORDER BY contract_id LIMIT ?',
        [after, limit],
      );
      return rows.map((r) => r.contract_id);
    },
    async read(agent, after, limit) {
      const rows = await db.all<{ id: number | string; body: string }>(
        'SELECT id, body FROM agent_feed WHERE agent = ? AND id > ? ORDER BY id LIMIT ?',
        [agent, after, limit],
      );
      return rows.map(entryFromRow);
    },
    async agentContracts({ agent, role, open, limit, before }) {
      const where = ['a.agent = ?'];
      const params: (string | number)[] = [agent];
      if (role !== undefined) {
        where.push('a.contract_id IN (SELECT contract_id FROM agent_contracts WHERE agent = ? AND role = ?)');
        params.push(agent, role);
      }
      if (open !== undefined) {
        where.push('COALESCE(f.closed, 0) = ?');
        params.push(open ? 0 : 1);
      }
      const having =
        before === undefined ? '' : 'HAVING MIN(a.since) < ? OR (MIN(a.since) = ? AND a.contract_id < ?)';
      const havingParams = before === undefined ? [] : [before.since, before.since, before.contractId];
      const rows = await db.all<{
        contract_id: string;
        roles: string;
        since: number | string;
        closed: number;
      }>(
        `SELECT a.contract_id, ${db.dialect === 'sqlite' ? "group_concat(a.role, ',')" : "string_agg(a.role, ',')"} AS roles,
                MIN(a.since) AS since, MAX(COALESCE(f.closed, 0)) AS closed
         FROM agent_contracts a LEFT JOIN feed_contracts f ON f.contract_id = a.contract_id
         WHERE ${where.join(' AND ')}
         GROUP BY a.contract_id ${having}
         ORDER BY MIN(a.since) DESC, a.contract_id DESC LIMIT ?`,
        [...params, ...havingParams, limit],
      );
      return rows.map((r) => ({
        contractId: r.contract_id,
        roles: r.roles.split(',') as AgentRole[],
        since: Number(r.since),
        closed: Number(r.closed) === 1,
      }));
    },

    async addSubscription(sub) {
      await db.run(
        `INSERT INTO webhook_subscriptions (id, agent, url, secret, created_at, deleted, delivered_through, failures, abandoned)
         VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0)`,
        [sub.id, sub.agent, sub.url, sub.secret, sub.createdAt],
      );
    },
    async subscriptions(agent) {
      const rows = await db.all<SubscriptionRow>(
        `SELECT ${subscriptionColumns} FROM webhook_subscriptions WHERE agent = ? AND deleted = 0 ORDER BY created_at, id`,
        [agent],
      );
      return rows.map(subscriptionFromRow);
    },
    async subscription(id) {
      const rows = await db.all<SubscriptionRow>(
        `SELECT ${subscriptionColumns} FROM webhook_subscriptions WHERE id = ? AND deleted = 0`,
        [id],
      );
      return rows[0] && subscriptionFromRow(rows[0]);
    },
    async deleteSubscription(agent, id) {
      return (
        (await db.run(
          'UPDATE webhook_subscriptions SET deleted = 1 WHERE id = ? AND agent = ? AND deleted = 0',
          [id, agent],
        )) > 0
      );
    },
    async agentsAt(url) {
      const rows = await db.all<{ agent: string }>(
        'SELECT DISTINCT agent FROM webhook_subscriptions WHERE url = ? AND deleted = 0',
        [url],
      );
      return rows.map((r) => r.agent);
    },
    async subscriptionsOf(agents) {
      if (agents.length === 0) return [];
      const rows = await db.all<SubscriptionRow>(
        `SELECT ${subscriptionColumns} FROM webhook_subscriptions
         WHERE deleted = 0 AND agent IN (${agents.map(() => '?').join(', ')})`,
        agents,
      );
      return rows.map(subscriptionFromRow);
    },
    async delivered(id, entryId, at) {
      await db.run(
        `UPDATE webhook_subscriptions SET delivered_through = CASE WHEN delivered_through < ? THEN ? ELSE delivered_through END,
         failures = 0, last_success_at = ? WHERE id = ?`,
        [entryId, entryId, at, id],
      );
    },
    async failed(id, error, at) {
      await db.run(
        'UPDATE webhook_subscriptions SET failures = failures + 1, last_error = ?, last_failure_at = ? WHERE id = ?',
        [error.slice(0, 500), at, id],
      );
    },
    async abandoned(id, entryId) {
      await db.run(
        `UPDATE webhook_subscriptions SET abandoned = abandoned + 1,
         delivered_through = CASE WHEN delivered_through < ? THEN ? ELSE delivered_through END WHERE id = ?`,
        [entryId, entryId, id],
      );
    },
    async claimDelivery(eventKey, url, id, now) {
      if (++claims % 500 === 0) {
        await db.run('DELETE FROM webhook_claims WHERE claimed_at < ?', [now - CLAIM_KEPT_MS]);
      }
      await db.run(
        `INSERT INTO webhook_claims (event_key, url, subscription_id, claimed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (event_key, url) DO NOTHING`,
        [eventKey, url, id, now],
      );
      const rows = await db.all<{ subscription_id: string }>(
        'SELECT subscription_id FROM webhook_claims WHERE event_key = ? AND url = ?',
        [eventKey, url],
      );
      return rows[0]?.subscription_id === id;
    },
    takeHostToken(host, rule, now) {
      return db.tx(async (q) => {
        const [row] = await q.all<{ tokens: number | string; refilled_at: number | string }>(
          'SELECT tokens, refilled_at FROM webhook_host_buckets WHERE host = ?',
          [host],
        );
        const at = Math.max(now, row === undefined ? now : Number(row.refilled_at));
        const tokens =
          row === undefined ? rule.burst : refilled(Number(row.tokens), Number(row.refilled_at), now, rule);
        const ok = tokens >= 1;
        await q.run(
          `INSERT INTO webhook_host_buckets (host, tokens, refilled_at) VALUES (?, ?, ?)
           ON CONFLICT (host) DO UPDATE SET tokens = excluded.tokens, refilled_at = excluded.refilled_at`,
          [host, ok ? tokens - 1 : tokens, at],
        );
        return ok ? { ok: true as const } : { ok: false as const, retryAfterMs: retryAfterMs(tokens, rule) };
      }, HOST_BUCKET_LOCK_KEY);
    },
    close: () => db.close(),
  };
}

async function createAll(db: SqlDb): Promise<void> {
  for (const statement of ddl('sqlite')) await db.run(statement);
}

/** The feed's tables in their own SQLite file (WAL). */
export async function openSqliteFeed(path: string): Promise<FeedStore> {
  const db = sqliteDb(path);
  await createAll(db);
  return feedStoreOn(db);
}

/** The feed's tables in a PostgreSQL database, on `pool` (closed with the store when `ownsPool`). */
export async function openPostgresFeed(pool: PostgresPool, ownsPool = false): Promise<FeedStore> {
  await createTables(pool, ddl('postgres').join(';\n'));
  return feedStoreOn(postgresDb(pool, ownsPool));
}

/**
 * Where the API's other stores are: `feed.sqlite` in the data dir, or the ledger's PostgreSQL
 * database and schema (a pool of its own: the API and the worker both open it).
 */
export async function openFeed(settings: { dataDir: string; ledger: DatabaseConfig }): Promise<FeedStore> {
  const config = settings.ledger;
  if (config.kind === 'sqlite') return openSqliteFeed(dataFile(settings.dataDir, 'feed'));
  const pool = await openPostgresPool({
    connectionString: config.connectionString,
    ...(config.schema === undefined ? {} : { schema: config.schema }),
    poolSize: 2,
  });
  try {
    return await openPostgresFeed(pool, true);
  } catch (error) {
    await pool.end();
    throw error;
  }
}
