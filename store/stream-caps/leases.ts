// Event-stream slots (api_event_streams, store/rate-limit/postgres.ts) as leases of the API process that serves
// the stream (store/lease.ts): its heartbeat pushes the expiry of every slot it holds forward in one
// statement, so a dead process's slots free within the lease, not the per-stream expiry; a graceful stop
// gives them back at once (its streams close with it).
import type { PostgresPool } from '../postgres/pool';
import type { LeasedRows } from '../lease';

/** The holder column, added to a table made before slots had holders (such slots expire as before). */
export const STREAM_SLOT_HOLDER_DDL = `ALTER TABLE api_event_streams ADD COLUMN IF NOT EXISTS holder TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS api_event_streams_holder ON api_event_streams (holder);`;

/** A holder's slots on `pool`, each renewed to expire `leaseMs` after the beat. */
export function streamSlotLeases(pool: PostgresPool, leaseMs: number): LeasedRows {
  return {
    async renew(holder, now) {
      await pool.query('UPDATE api_event_streams SET expires_at = $2 WHERE holder = $1 AND expires_at < $2', [
        holder,
        now + leaseMs,
      ]);
    },
    async releaseAll(holder) {
      const deleted = await pool.query('DELETE FROM api_event_streams WHERE holder = $1', [holder]);
      return deleted.rowCount ?? 0;
    },
  };
}
