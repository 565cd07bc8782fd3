// Mandates (docs/agents.md "Mandates"): what a delegate key may commit of its owner's balance. Kept in the
// ledger's database beside the money, because the limits are checked in the transaction of the hold that
// would exceed them: a hold taken under a mandate (HoldOp.mandate) is recorded in mandate_commitments and
// the mandate's sums are read back in that same transaction, behind the lock of the owner's account that
// every hold of the owner takes, so no two concurrent holds both see room that only one of them has.
// A commitment is open while its hold is: a released hold frees `total` and `perContract`, never `perDay`.
import { MandateExistsError, MandateRefusedError } from './errors';
import { isAddress } from '../../workflows/rules/address-format';
import { big, nullableStr, str } from './sql';
import type { Row, SqlDriver, SqlTx } from './sql';

/** Same SQL for SQLite and PostgreSQL; created with the ledger's schema. */
export const MANDATE_SCHEMA = `
CREATE TABLE IF NOT EXISTS mandates (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  delegate TEXT NOT NULL CHECK (delegate <> owner),
  per_contract BIGINT NOT NULL CHECK (per_contract > 0),
  total BIGINT NOT NULL CHECK (total > 0),
  per_day BIGINT NOT NULL CHECK (per_day > 0),
  roles TEXT,
  counterparties TEXT,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS mandates_by_owner ON mandates (owner, created_at);
CREATE INDEX IF NOT EXISTS mandates_by_delegate ON mandates (delegate, owner, created_at);

CREATE TABLE IF NOT EXISTS mandate_commitments (
  hold_id TEXT PRIMARY KEY,
  mandate_id TEXT NOT NULL REFERENCES mandates (id),
  contract_id TEXT NOT NULL,
  amount BIGINT NOT NULL CHECK (amount > 0),
  committed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS mandate_commitments_by_mandate ON mandate_commitments (mandate_id, committed_at);
`;

export const MANDATE_ROLES = ['client', 'worker', 'backup-agent'] as const;
export type MandateRole = (typeof MANDATE_ROLES)[number];

/** `perDay` counts what was committed in the last this many milliseconds. */
export const MANDATE_DAY_MS = 24 * 3600_000;

export interface MandateLimits {
  /** The most one contract may commit under the mandate (escrow or budget; Worker Stake or bid bond; bonds). */
  perContract: bigint;
  /** The most the mandate's open commitments may hold at once. */
  total: bigint;
  /** The most it may newly commit in any 24 hours. */
  perDay: bigint;
  /** The roles the delegate may act in; null: every role. */
  roles: MandateRole[] | null;
  /** The only addresses the delegate may contract with; null: anyone. */
  counterparties: string[] | null;
}

export interface Mandate {
  id: string;
  /** Lowercase addresses. */
  owner: string;
  delegate: string;
  limits: MandateLimits;
  /** ISO-8601 UTC. */
  expiresAt: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A mandate with what it holds now and what it may still commit. */
export interface MandateStanding extends Mandate {
  /** Its open commitments. */
  committed: bigint;
  /** What it committed in the last 24 hours, released or not. */
  committedLastDay: bigint;
  /** min(total - committed, perDay - committedLastDay), 0 once revoked or expired. */
  left: bigint;
}

export interface MandateRegistry {
  /** Records a new mandate; MandateExistsError when the delegate already has a live one from this owner. */
  grant(mandate: Omit<Mandate, 'revokedAt'>): Promise<Mandate>;
  /** Revokes the owner's mandate at once (a second revoke changes nothing); undefined for no such mandate. */
  revoke(owner: string, id: string): Promise<Mandate | undefined>;
  /** The owner's mandates, newest first, each with its commitments. */
  list(owner: string): Promise<MandateStanding[]>;
  /** The delegate's newest mandate from the owner, live or not; undefined when it never had one. */
  newestFor(owner: string, delegate: string): Promise<Mandate | undefined>;
}

function address(value: string, field: string): string {
  if (!isAddress(value)) throw new RangeError(`${field}: must be a 0x + 40 hex address`);
  return value.toLowerCase();
}

function listColumn(value: unknown): string[] | null {
  const text = nullableStr(value);
  return text === null ? null : (JSON.parse(text) as string[]);
}

function rowToMandate(row: Row): Mandate {
  return {
    id: str(row.id),
    owner: str(row.owner),
    delegate: str(row.delegate),
    limits: {
      perContract: big(row.per_contract),
      total: big(row.total),
      perDay: big(row.per_day),
      roles: listColumn(row.roles) as MandateRole[] | null,
      counterparties: listColumn(row.counterparties),
    },
    expiresAt: str(row.expires_at),
    createdAt: str(row.created_at),
    revokedAt: nullableStr(row.revoked_at),
  };
}

const MANDATE_COLUMNS = `id, owner, delegate, per_contract, total, per_day, roles, counterparties, expires_at,
  created_at, revoked_at`;

/** Open: no row closes the commitment's hold yet (the ledger's hold index answers it). */
const OPEN_COMMITMENT = `NOT EXISTS (SELECT 1 FROM ledger_transfers c
  WHERE c.hold_id = m.hold_id AND c.closes_hold = m.hold_id)`;

const dayBefore = (now: string) => new Date(Date.parse(now) - MANDATE_DAY_MS).toISOString();

/** Why a mandate cannot commit anything at `now`, or null when it is live. */
export function mandateLapse(mandate: Mandate, now: string): 'mandate_revoked' | 'mandate_expired' | null {
  if (mandate.revokedAt !== null) return 'mandate_revoked';
  if (mandate.expiresAt <= now) return 'mandate_expired';
  return null;
}

/**
 * Inside the hold's transaction, after its transfer row is written: records the commitment and refuses
 * (rolling the whole batch back) when the mandate is not the owner's, is revoked or expired, or when one
 * of its limits would be exceeded, counting every commitment the database holds at this moment.
 */
/** The fields of a hold (types.ts HoldOp) its mandate reads. */
export interface MandatedHold {
  id: string;
  owner: string;
  amount: bigint;
  contractId?: string;
  mandate: string;
}

export async function commitUnderMandate(tx: SqlTx, op: MandatedHold, now: string) {
  const [row] = await tx.all(`SELECT ${MANDATE_COLUMNS} FROM mandates WHERE id = ?`, [op.mandate]);
  const mandate = row === undefined ? undefined : rowToMandate(row);
  if (mandate === undefined || `agent:${mandate.owner}` !== op.owner) {
    throw new MandateRefusedError('mandate_revoked', `no mandate ${op.mandate} of ${op.owner}`, {
      mandate: op.mandate,
    });
  }
  const lapse = mandateLapse(mandate, now);
  if (lapse !== null) {
    const what = lapse === 'mandate_revoked' ? `was revoked at ${mandate.revokedAt}` : 'has expired';
    throw new MandateRefusedError(lapse, `mandate ${mandate.id} ${what}`, { mandate: mandate.id });
  }
  await tx.run(
    `INSERT INTO mandate_commitments (hold_id, mandate_id, contract_id, amount, committed_at)
     VALUES (?, ?, ?, ?, ?)`,
    [op.id, mandate.id, op.contractId!, op.amount, now],
  );
  const [sums] = await tx.all(
    `SELECT
       COALESCE(SUM(CASE WHEN ${OPEN_COMMITMENT} THEN m.amount ELSE 0 END), 0) AS open_total,
       COALESCE(SUM(CASE WHEN m.contract_id = ? AND ${OPEN_COMMITMENT} THEN m.amount ELSE 0 END), 0) AS open_contract,
       COALESCE(SUM(CASE WHEN m.committed_at > ? THEN m.amount ELSE 0 END), 0) AS last_day
     FROM mandate_commitments m WHERE m.mandate_id = ?`,
    [op.contractId!, dayBefore(now), mandate.id],
  );
  const checks: Array<[string, bigint, bigint]> = [
    ['perContract', big(sums?.open_contract), mandate.limits.perContract],
    ['total', big(sums?.open_total), mandate.limits.total],
    ['perDay', big(sums?.last_day), mandate.limits.perDay],
  ];
  for (const [limit, wouldBe, allowed] of checks) {
    if (wouldBe > allowed) {
      throw new MandateRefusedError(
        'mandate_exceeded',
        `mandate ${mandate.id}: committing ${op.amount} would bring its ${limit} commitments to ${wouldBe}, above ${allowed}`,
        { mandate: mandate.id, limit, allowed: allowed.toString(), wouldBe: wouldBe.toString() },
      );
    }
  }
}

export class SqlMandateRegistry implements MandateRegistry {
  constructor(private readonly db: SqlDriver) {}

  async grant(input: Omit<Mandate, 'revokedAt'>): Promise<Mandate> {
    const owner = address(input.owner, 'owner');
    const delegate = address(input.delegate, 'delegate');
    const { limits } = input;
    const mandate: Mandate = { ...input, owner, delegate, revokedAt: null };
    await this.db.write(async (tx) => {
      const [live] = await tx.all(
        `SELECT id FROM mandates WHERE owner = ? AND delegate = ? AND revoked_at IS NULL AND expires_at > ?`,
        [owner, delegate, input.createdAt],
      );
      if (live !== undefined) throw new MandateExistsError(str(live.id), delegate);
      await tx.run(`INSERT INTO mandates (${MANDATE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`, [
        input.id,
        owner,
        delegate,
        limits.perContract,
        limits.total,
        limits.perDay,
        limits.roles === null ? null : JSON.stringify(limits.roles),
        limits.counterparties === null ? null : JSON.stringify(limits.counterparties),
        input.expiresAt,
        input.createdAt,
      ]);
    });
    return mandate;
  }

  async revoke(ownerAddress: string, id: string): Promise<Mandate | undefined> {
    const owner = address(ownerAddress, 'owner');
    const now = new Date().toISOString();
    return this.db.write(async (tx) => {
      await tx.run('UPDATE mandates SET revoked_at = ? WHERE id = ? AND owner = ? AND revoked_at IS NULL', [
        now,
        id,
        owner,
      ]);
      const [row] = await tx.all(`SELECT ${MANDATE_COLUMNS} FROM mandates WHERE id = ? AND owner = ?`, [
        id,
        owner,
      ]);
      return row === undefined ? undefined : rowToMandate(row);
    });
  }

  async list(ownerAddress: string): Promise<MandateStanding[]> {
    const owner = address(ownerAddress, 'owner');
    const now = new Date().toISOString();
    const rows = await this.db.read((tx) =>
      tx.all(
        `SELECT ${MANDATE_COLUMNS.replace(/(\w+)/g, 'd.$1')},
           (SELECT COALESCE(SUM(m.amount), 0) FROM mandate_commitments m
             WHERE m.mandate_id = d.id AND ${OPEN_COMMITMENT}) AS committed,
           (SELECT COALESCE(SUM(m.amount), 0) FROM mandate_commitments m
             WHERE m.mandate_id = d.id AND m.committed_at > ?) AS last_day
         FROM mandates d WHERE d.owner = ? ORDER BY d.created_at DESC, d.id`,
        [dayBefore(now), owner],
      ),
    );
    return rows.map((row) => {
      const mandate = rowToMandate(row);
      const committed = big(row.committed);
      const committedLastDay = big(row.last_day);
      const room = [mandate.limits.total - committed, mandate.limits.perDay - committedLastDay];
      const left = mandateLapse(mandate, now) !== null ? 0n : room.reduce((a, b) => (a < b ? a : b));
      return { ...mandate, committed, committedLastDay, left: left < 0n ? 0n : left };
    });
  }

  async newestFor(ownerAddress: string, delegateAddress: string): Promise<Mandate | undefined> {
    const owner = address(ownerAddress, 'owner');
    const delegate = address(delegateAddress, 'delegate');
    const [row] = await this.db.read((tx) =>
      tx.all(
        `SELECT ${MANDATE_COLUMNS} FROM mandates WHERE owner = ? AND delegate = ?
         ORDER BY created_at DESC, id LIMIT 1`,
        [owner, delegate],
      ),
    );
    return row === undefined ? undefined : rowToMandate(row);
  }
}
