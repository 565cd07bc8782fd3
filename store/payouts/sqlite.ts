// Withdrawals waiting for the operator's payout rail (docs/api.md "Withdrawals"). The ledger moves the
// money (agent → USDC mint, the outside); this store only remembers where it should go and whether the
// operator has sent it. A row is keyed by its ledger operation id, so recording it again is a no-op.
import type { SqliteDatabase } from '../sqlite/open';
import { openSqliteFile } from '../sqlite/open';

export interface Payout {
  /** The ledger operation id of the withdrawal. */
  id: string;
  address: string;
  amount: string;
  destination: string;
  status: 'pending' | 'paid';
  requestedAt: string;
  paidAt: string | null;
  /** The operator's reference for the payment it made (a transaction hash, a bank reference). */
  reference: string | null;
}

export type NewPayout = Pick<Payout, 'id' | 'address' | 'amount' | 'destination'> & { requestedAt: number };

export interface PayoutStore {
  /** Records a withdrawal once; answers the stored row (the first one when `id` is known already). */
  record(payout: NewPayout): Promise<Payout>;
  listOf(address: string): Promise<Payout[]>;
  pending(): Promise<Payout[]>;
  /** Marks a pending payout paid; answers the row, or undefined for an unknown id. Paid stays paid. */
  markPaid(id: string, reference: string, at: number): Promise<Payout | undefined>;
}

export interface PayoutRow {
  id: string;
  address: string;
  amount: string;
  destination: string;
  requested_at: number | string;
  paid_at: number | string | null;
  reference: string | null;
}

export function payoutFromRow(row: PayoutRow): Payout {
  const iso = (ms: number | string) => new Date(Number(ms)).toISOString();
  return {
    id: row.id,
    address: row.address,
    amount: row.amount,
    destination: row.destination,
    status: row.paid_at === null ? 'pending' : 'paid',
    requestedAt: iso(row.requested_at),
    paidAt: row.paid_at === null ? null : iso(row.paid_at),
    reference: row.reference,
  };
}

export const PAYOUTS_COLUMNS = `id TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  amount TEXT NOT NULL,
  destination TEXT NOT NULL,
  requested_at BIGINT NOT NULL,
  paid_at BIGINT,
  reference TEXT`;

export class SqlitePayoutStore implements PayoutStore {
  private readonly db: SqliteDatabase;

  constructor(path: string) {
    this.db = openSqliteFile(path);
    this.db.exec(`CREATE TABLE IF NOT EXISTS payouts (${PAYOUTS_COLUMNS});
      CREATE INDEX IF NOT EXISTS payouts_address ON payouts (address, requested_at);`);
  }

  async record(p: NewPayout): Promise<Payout> {
    this.db
      .prepare(
        'INSERT INTO payouts (id, address, amount, destination, requested_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .run(p.id, p.address, p.amount, p.destination, p.requestedAt);
    return this.get(p.id) as Payout;
  }

  async listOf(address: string): Promise<Payout[]> {
    const rows = this.db
      .prepare('SELECT * FROM payouts WHERE address = ? ORDER BY requested_at, id')
      .all(address) as PayoutRow[];
    return rows.map(payoutFromRow);
  }

  async pending(): Promise<Payout[]> {
    const rows = this.db
      .prepare('SELECT * FROM payouts WHERE paid_at IS NULL ORDER BY requested_at, id')
      .all() as PayoutRow[];
    return rows.map(payoutFromRow);
  }

  async markPaid(id: string, reference: string, at: number): Promise<Payout | undefined> {
    this.db
      .prepare('UPDATE payouts SET paid_at = ?, reference = ? WHERE id = ? AND paid_at IS NULL')
      .run(at, reference, id);
    return this.get(id);
  }

  close(): void {
    this.db.close();
  }

  private get(id: string): Payout | undefined {
    const row = this.db.prepare('SELECT * FROM payouts WHERE id = ?').get(id) as PayoutRow | undefined;
    return row === undefined ? undefined : payoutFromRow(row);
  }
}
