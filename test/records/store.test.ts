// The contract record store on both dialects: a record is written once; a repeat of the same record
// is a no-op, a different record under the same contract id is refused and changes nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LedgerConfig } from '../../activities/ledger';
import { openRecords, RecordConflict, type ContractRecord } from '../../activities/records';
import { startPostgres, type PostgresServer } from '../support/postgres';

function record(contractId: string, status: string): ContractRecord {
  return {
    contractId,
    view: { contractId, status, created: true } as unknown as ContractRecord['view'],
    events: [{ type: 'created', contractId, at: 1 } as unknown as ContractRecord['events'][number]],
    votes: { sealed: true },
  };
}

const dialects: Array<[string, () => Promise<LedgerConfig>]> = [];
let dir = '';
let server: PostgresServer | undefined;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oc-records-'));
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});
dialects.push(
  ['sqlite', async () => ({ kind: 'sqlite', path: join(dir, 'ledger.sqlite') })],
  [
    'postgres',
    async () => ({
      kind: 'postgres',
      connectionString: await server!.createDatabase('records'),
      schema: 'oc',
    }),
  ],
);

for (const [name, config] of dialects) {
  describe(`contract records on ${name}`, () => {
    test('written once: the same record again is a no-op, another one a conflict', async () => {
      const cfg = await config();
      const store = await openRecords(cfg);
      try {
        assert.equal(await store.get('c-1'), undefined);
        assert.equal(await store.save(record('c-1', 'settled-fully-met')), 'saved');
        assert.equal(await store.save(record('c-1', 'settled-fully-met')), 'unchanged');
        await assert.rejects(store.save(record('c-1', 'cancelled')), RecordConflict);
        assert.deepEqual(await store.get('c-1'), record('c-1', 'settled-fully-met'));
      } finally {
        await store.close();
      }
      // A second connection (another process after a restart) reads the same record.
      const reopened = await openRecords(cfg);
      try {
        assert.deepEqual(await reopened.get('c-1'), record('c-1', 'settled-fully-met'));
      } finally {
        await reopened.close();
      }
    });
  });
}
