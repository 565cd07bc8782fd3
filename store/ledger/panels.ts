// The Backup Agent panel registry (docs/protocol.md §8), kept in the ledger's database beside the money: which
// agents sit on an open panel (the API refuses their eligibility unlock) and the vote rows of every
// tallied panel, each under its milestone (readable by contract and by agent). Written by the contract
// workflow's activities (a panel opens when it is drawn, closes with its vote rows at the tally); read
// by the API.
// Both writes are idempotent, so a retried activity changes nothing the second time.
import { isAddress } from '../../workflows/rules/address-format';
import { big, str } from './sql';
import type { Row, SqlDriver } from './sql';

/** A milestone index, or this for a whole-contract panel (a NULL in the primary key would not be unique). */
const WHOLE_CONTRACT = -1;

/** One row per (contract, milestone, Backup Agent, criterion): a BA may sit on several milestones' panels. */
const VOTE_ROWS_TABLE = `CREATE TABLE IF NOT EXISTS vote_rows (
  contract_id TEXT NOT NULL,
  milestone_key INTEGER NOT NULL CHECK (milestone_key >= ${WHOLE_CONTRACT}),
  backup_agent TEXT NOT NULL,
  criterion_index INTEGER NOT NULL CHECK (criterion_index >= 0),
  vote TEXT NOT NULL CHECK (vote IN ('met', 'not met', 'unclear', 'no vote')),
  majority_outcome TEXT NOT NULL CHECK (majority_outcome IN ('met', 'not met', 'unclear')),
  bond_outcome TEXT NOT NULL CHECK (bond_outcome IN ('returned', 'slashed', 'partially slashed')),
  reward BIGINT NOT NULL CHECK (reward >= 0),
  tallied_at TEXT NOT NULL,
  CONSTRAINT vote_rows_key PRIMARY KEY (contract_id, milestone_key, backup_agent, criterion_index)
);`;

/** Same SQL for SQLite and PostgreSQL; created with the ledger's schema (after UPGRADE_VOTE_ROWS). */
export const PANEL_SCHEMA = `
CREATE TABLE IF NOT EXISTS panel_seats (
  contract_id TEXT NOT NULL,
  backup_agent TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  closed_at TEXT,
  PRIMARY KEY (contract_id, backup_agent)
);
CREATE INDEX IF NOT EXISTS panel_seats_by_agent ON panel_seats (backup_agent, closed_at);

${VOTE_ROWS_TABLE}
CREATE INDEX IF NOT EXISTS vote_rows_by_agent ON vote_rows (backup_agent, contract_id, milestone_key, criterion_index);

CREATE TABLE IF NOT EXISTS panel_waitlist (
  contract_id TEXT PRIMARY KEY,
  waiting_since BIGINT NOT NULL,
  panel_size INTEGER NOT NULL CHECK (panel_size > 0),
  excluded_agents TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS panel_waitlist_order ON panel_waitlist (waiting_since, contract_id);
`;

/**
 * A vote_rows table written before rows were keyed by milestone (it has no milestone_key) is rebuilt in
 * place, in the caller's transaction, each of its rows read as a whole contract's (the old table cannot
 * say which milestone a row was of). Same SQL for SQLite and PostgreSQL; run only when `voteRowsNeedUpgrade` is true.
 */
export const UPGRADE_VOTE_ROWS = `
DROP INDEX IF EXISTS vote_rows_by_agent;
ALTER TABLE vote_rows RENAME TO vote_rows_before_milestones;
${VOTE_ROWS_TABLE}
INSERT INTO vote_rows (contract_id, milestone_key, backup_agent, criterion_index, vote, majority_outcome,
  bond_outcome, reward, tallied_at)
SELECT contract_id, ${WHOLE_CONTRACT}, backup_agent, criterion_index, vote, majority_outcome, bond_outcome,
  reward, tallied_at FROM vote_rows_before_milestones;
DROP TABLE vote_rows_before_milestones;
`;

/** Whether a vote_rows table exists without its milestone_key column, from its column names. */
export function voteRowsNeedUpgrade(columns: readonly string[]): boolean {
  return columns.length > 0 && !columns.includes('milestone_key');
}

/**
 * A contract waiting for a full panel (docs/protocol.md §8 "Waiting for seats"): seated in the order
 * contracts started waiting (`since`, then the contract ID), as soon as the registry can seat it.
 */
export interface WaitingContract {
  contractId: string;
  /** When it started waiting for this panel (ms since the epoch, workflow time). */
  since: number;
  panelSize: number;
  /** Never drawn for it: the Client, the Worker, a first panel, silent members (lowercase). */
  exclude: string[];
}

export type RowVote = 'met' | 'not met' | 'unclear' | 'no vote';

/** One vote row of docs/protocol.md §8 (reward in OCT minor units). */
export interface VoteRecord {
  contractId: string;
  /** The milestone whose panel this row is of; null for a whole contract's panel. */
  milestoneIndex: number | null;
  backupAgent: string;
  criterionIndex: number;
  vote: RowVote;
  majorityOutcome: 'met' | 'not met' | 'unclear';
  bondOutcome: 'returned' | 'slashed' | 'partially slashed';
  reward: bigint;
}

export interface PanelRegistry {
  /** Seats the drawn panel (addresses lowercased). Repeating it changes nothing. */
  openPanel(contractId: string, members: readonly string[]): Promise<void>;
  /**
   * Stores the panel's vote rows (each under its own milestone) and frees its seats, in one transaction.
   * Repeating it changes nothing.
   */
  closePanel(contractId: string, rows: readonly VoteRecord[]): Promise<void>;
  /** Frees the seats of `members` on the contract's panel (a void round) without vote rows. Repeating it changes nothing. */
  closeSeats(contractId: string, members: readonly string[]): Promise<void>;
  /** Puts the contract on the waitlist (its first `since` kept; size and exclusions updated). */
  joinWaitlist(entry: WaitingContract): Promise<void>;
  /** Takes the contract off the waitlist (seated, or decided without a panel). Repeating it changes nothing. */
  leaveWaitlist(contractId: string): Promise<void>;
  /** Every waiting contract, in waiting order. */
  waitlist(): Promise<WaitingContract[]>;
  /** The contracts on whose open panel the agent sits, sorted. */
  openPanelsOf(address: string): Promise<string[]>;
  voteRowsByContract(contractId: string): Promise<VoteRecord[]>;
  voteRowsOf(address: string): Promise<VoteRecord[]>;
}

function address(value: string, field: string): string {
  if (!isAddress(value)) throw new RangeError(`${field}: must be a 0x + 40 hex address`);
  return value.toLowerCase();
}

function contract(value: string): string {
  if (value === '' || value.length > 100) throw new RangeError('contractId: must be 1-100 characters');
  return value;
}

function milestoneKey(value: number | null, field: string): number {
  if (value === null) return WHOLE_CONTRACT;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${field}: must be null or an index ≥ 0`);
  return value;
}

function rowToRecord(row: Row): VoteRecord {
  const key = Number(row.milestone_key);
  return {
    contractId: str(row.contract_id),
    milestoneIndex: key === WHOLE_CONTRACT ? null : key,
    backupAgent: str(row.backup_agent),
    criterionIndex: Number(row.criterion_index),
    vote: str(row.vote) as RowVote,
    majorityOutcome: str(row.majority_outcome) as VoteRecord['majorityOutcome'],
    bondOutcome: str(row.bond_outcome) as VoteRecord['bondOutcome'],
    reward: big(row.reward),
  };
}

const ROW_COLUMNS = `contract_id, milestone_key, backup_agent, criterion_index, vote, majority_outcome, bond_outcome,
  reward`;

export class SqlPanelRegistry implements PanelRegistry {
  constructor(private readonly db: SqlDriver) {}

  async openPanel(contractId: string, members: readonly string[]): Promise<void> {
    const id = contract(contractId);
    const seats = members.map((m, i) => address(m, `members[${i}]`));
    const now = new Date().toISOString();
    await this.db.write(async (tx) => {
      for (const seat of seats) {
        // A voter of a void round drawn again on the contract's next panel sits again.
        await tx.run(
          `INSERT INTO panel_seats (contract_id, backup_agent, opened_at) VALUES (?, ?, ?)
           ON CONFLICT (contract_id, backup_agent) DO UPDATE SET closed_at = NULL
           WHERE panel_seats.closed_at IS NOT NULL`,
          [id, seat, now],
        );
      }
    });
  }

  async closePanel(contractId: string, rows: readonly VoteRecord[]): Promise<void> {
    const id = contract(contractId);
    const now = new Date().toISOString();
    const checked = rows.map((r, i) => {
      if (r.contractId !== id) throw new RangeError(`rows[${i}].contractId: must be ${id}`);
      if (r.reward < 0n) throw new RangeError(`rows[${i}].reward: must not be negative`);
      return {
        ...r,
        milestoneKey: milestoneKey(r.milestoneIndex, `rows[${i}].milestoneIndex`),
        backupAgent: address(r.backupAgent, `rows[${i}].backupAgent`),
      };
    });
    await this.db.write(async (tx) => {
      for (const r of checked) {
        await tx.run(
          `INSERT INTO vote_rows (${ROW_COLUMNS}, tallied_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (contract_id, milestone_key, backup_agent, criterion_index) DO NOTHING`,
          [
            id,
            r.milestoneKey,
            r.backupAgent,
            r.criterionIndex,
            r.vote,
            r.majorityOutcome,
            r.bondOutcome,
            r.reward,
            now,
          ],
        );
      }
      await tx.run('UPDATE panel_seats SET closed_at = ? WHERE contract_id = ? AND closed_at IS NULL', [
        now,
        id,
      ]);
    });
  }

  async closeSeats(contractId: string, members: readonly string[]): Promise<void> {
    const id = contract(contractId);
    const seats = members.map((m, i) => address(m, `members[${i}]`));
    const now = new Date().toISOString();
    await this.db.write(async (tx) => {
      for (const seat of seats) {
        await tx.run(
          `UPDATE panel_seats SET closed_at = ? WHERE contract_id = ? AND backup_agent = ? AND closed_at IS NULL`,
          [now, id, seat],
        );
      }
    });
  }

  async joinWaitlist(entry: WaitingContract): Promise<void> {
    const id = contract(entry.contractId);
    if (!Number.isSafeInteger(entry.since) || entry.since < 0)
      throw new RangeError('since: must be a time in ms');
    if (!Number.isInteger(entry.panelSize) || entry.panelSize < 1)
      throw new RangeError('panelSize: must be ≥ 1');
    const exclude = JSON.stringify(entry.exclude.map((a, i) => address(a, `exclude[${i}]`)));
    await this.db.write((tx) =>
      tx.run(
        `INSERT INTO panel_waitlist (contract_id, waiting_since, panel_size, excluded_agents) VALUES (?, ?, ?, ?)
         ON CONFLICT (contract_id) DO UPDATE SET panel_size = excluded.panel_size, excluded_agents = excluded.excluded_agents`,
        [id, entry.since, entry.panelSize, exclude],
      ),
    );
  }

  async leaveWaitlist(contractId: string): Promise<void> {
    const id = contract(contractId);
    await this.db.write((tx) => tx.run('DELETE FROM panel_waitlist WHERE contract_id = ?', [id]));
  }

  async waitlist(): Promise<WaitingContract[]> {
    const rows = await this.db.read((tx) =>
      tx.all(
        `SELECT contract_id, waiting_since, panel_size, excluded_agents FROM panel_waitlist
         ORDER BY waiting_since, contract_id`,
      ),
    );
    return rows.map((r) => ({
      contractId: str(r.contract_id),
      since: Number(r.waiting_since),
      panelSize: Number(r.panel_size),
      exclude: JSON.parse(str(r.excluded_agents)) as string[],
    }));
  }

  async openPanelsOf(agent: string): Promise<string[]> {
    const who = address(agent, 'address');
    const rows = await this.db.read((tx) =>
      tx.all(
        `SELECT contract_id FROM panel_seats WHERE backup_agent = ? AND closed_at IS NULL ORDER BY contract_id`,
        [who],
      ),
    );
    return rows.map((r) => str(r.contract_id));
  }

  async voteRowsByContract(contractId: string): Promise<VoteRecord[]> {
    const rows = await this.db.read((tx) =>
      tx.all(
        `SELECT ${ROW_COLUMNS} FROM vote_rows WHERE contract_id = ?
         ORDER BY milestone_key, backup_agent, criterion_index`,
        [contractId],
      ),
    );
    return rows.map(rowToRecord);
  }

  async voteRowsOf(agent: string): Promise<VoteRecord[]> {
    const who = address(agent, 'address');
    const rows = await this.db.read((tx) =>
      tx.all(
        `SELECT ${ROW_COLUMNS} FROM vote_rows WHERE backup_agent = ?
         ORDER BY tallied_at, contract_id, milestone_key, criterion_index`,
        [who],
      ),
    );
    return rows.map(rowToRecord);
  }
}
