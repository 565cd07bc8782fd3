// The payout store on PostgreSQL (table api_payouts), shared by every API process. Same rules as
// SqlitePayoutStore (sqlite.ts).
import type { PostgresPool } from '../postgres/pool';
import { createTables } from '../postgres/pool';
import type { NewPayout, Payout, PayoutRow, PayoutStore } from './sqlite';
import { PAYOUTS_COLUMNS, payoutFromRow } from './sqlite';

export class PostgresPayoutStore implements PayoutStore {
  private constructor(private readonly pool: PostgresPool) {}

  /** Creates the table if missing. The pool stays its opener's to close. */
  static async open(pool: PostgresPool): Promise<PostgresPayoutStore> {
    await createTables(
      pool,
      `CREATE TABLE IF NOT EXISTS api_payouts (${PAYOUTS_COLUMNS});
CREATE INDEX IF NOT EXISTS api_payouts_address ON api_payouts (address, requested_at);`,
    );
    return new PostgresPayoutStore(pool);
  }

  async record(p: NewPayout): Promise<Payout> {
    await this.pool.query(
      'INSERT INTO api_payouts (id, address, amount, destination, requested_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      [p.id, p.address, p.amount, p.destination, p.requestedAt],
    );
    return (await this.get(p.id)) as Payout;
  }

  async listOf(address: string): Promise<Payout[]> {
    return this.select('WHERE address = $1', [address]);
  }

  async pending(): Promise<Payout[]> {
    return this.select('WHERE paid_at IS NULL', []);
  }

  async markPaid(id: string, reference: string, at: number): Promise<Payout | undefined> {
    await this.pool.query(
      'UPDATE api_payouts SET paid_at = $1, reference = $2 WHERE id = $3 AND paid_at IS NULL',
      [at, reference, id],
    );
    return this.get(id);
  }

  private async get(id: string): Promise<Payout | undefined> {
    return (await this.select('WHERE id = $1', [id]))[0];
  }

  private async select(where: string, values: unknown[]): Promise<Payout[]> {
    const { rows } = await this.pool.query<PayoutRow>(
      `SELECT * FROM api_payouts ${where} ORDER BY requested_at, id`,
      values,
    );
    return rows.map(payoutFromRow);
  }
}
