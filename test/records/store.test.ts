// The contract record store on both dialects: a record is written once; a repeat of the same record
// is a no-op, a different record under the same contract id is refused and changes nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LedgerConfig } from '../../activities/ledger';
import {
  openRecords,
  RecordConflict,
  type ClosedContract,
  type ContractRecord,
  type ContractRecordStore,
} from '../../activities/records';
import { startPostgres, type PostgresServer } from '../support/postgres';

function record(contractId: string, status: string, contractCode = 'FDP'): ContractRecord {
  return {
    contractId,
    view: {
      contractId,
      status,
      contractCode,
      createdAt: '2026-01-02T03:04:05.000Z',
      quoteCount: null,
      created: true,
    } as unknown as ContractRecord['view'],
    events: [{ type: 'created', contractId, at: 1 } as unknown as ContractRecord['events'][number]],
    votes: { sealed: true },
  };
}

/** A fresh database per test: `name` picks it. */
const dialects: Array<[string, (name: string) => Promise<LedgerConfig>]> = [];
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
  ['sqlite', async (name) => ({ kind: 'sqlite', path: join(dir, `${name}.sqlite`) })],
  [
    'postgres',
    async (name) => ({
      kind: 'postgres',
      connectionString: await server!.createDatabase(name),
      schema: 'oc',
    }),
  ],
);

for (const [name, config] of dialects) {
  describe(`contract records on ${name}`, () => {
    test('written once: the same record again is a no-op, another one a conflict', async () => {
      const cfg = await config('records');
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

    test('a later task of the run that wrote it rewrites it; an earlier task or another run never does', async () => {
      const store = await openRecords(await config('rewrite'));
      const by = (status: string, runId: string, at: number, id = 'c-1'): ContractRecord => ({
        ...record(id, status),
        writer: { runId, at },
      });
      try {
        assert.equal(await store.save(by('settled-fully-met', 'run-1', 1000)), 'saved');
        assert.equal(await store.save(by('settled-fully-met', 'run-1', 1000)), 'unchanged');
        // The task failed after its local activity wrote; the retried task decided otherwise.
        assert.equal(await store.save(by('cancelled', 'run-1', 2000)), 'rewritten');
        assert.deepEqual(await store.get('c-1'), by('cancelled', 'run-1', 2000));
        assert.deepEqual(
          (await store.listClosed({ limit: 10 })).map((c) => [c.contractId, c.status]),
          [['c-1', 'cancelled']],
        );
        // The failed task's write arriving late leaves the later one standing.
        assert.equal(await store.save(by('settled-fully-met', 'run-1', 1000)), 'unchanged');
        assert.deepEqual(await store.get('c-1'), by('cancelled', 'run-1', 2000));
        // Another run, the same time in the run, or a writer-less record: a conflict, nothing changes.
        await assert.rejects(store.save(by('settled-fully-met', 'run-2', 3000)), RecordConflict);
        await assert.rejects(store.save(by('settled-fully-met', 'run-1', 2000)), RecordConflict);
        await assert.rejects(store.save(record('c-1', 'settled-fully-met')), RecordConflict);
        assert.deepEqual(await store.get('c-1'), by('cancelled', 'run-1', 2000));
        // A record written without a writer (a scheduled activity) is never rewritten.
        assert.equal(await store.save(record('c-2', 'cancelled')), 'saved');
        await assert.rejects(store.save(by('settled-fully-met', 'run-1', 9000, 'c-2')), RecordConflict);
        assert.deepEqual(await store.get('c-2'), record('c-2', 'cancelled'));
      } finally {
        await store.close();
      }
    });

    test('closed listing: filters, newest first, and pages that an insert in between neither repeats nor skips', async () => {
      const store = await openRecords(await config('listing'));
      try {
        const ids = ['c-a', 'c-b', 'c-c', 'c-d', 'c-e'];
        for (const [i, id] of ids.entries()) {
          await store.save(
            record(id, i % 2 ? 'cancelled-absent' : 'settled-fully-met', i < 3 ? 'FDP' : 'FOS'),
          );
        }
        const all = await store.listClosed({ limit: 100 });
        assert.deepEqual(all.map((c) => c.contractId).sort(), ids);
        const key = (c: ClosedContract) => `${c.closedAt} ${c.contractId}`;
        assert.deepEqual(all.map(key), all.map(key).sort().reverse(), 'newest closed first, then by id');
        assert.deepEqual(
          all.find((c) => c.contractId === 'c-d'),
          {
            contractId: 'c-d',
            status: 'cancelled-absent',
            contractCode: 'FOS',
            createdAt: '2026-01-02T03:04:05.000Z',
            closedAt: all.find((c) => c.contractId === 'c-d')!.closedAt,
            quoteCount: null,
          },
        );
        const only = (q: Parameters<ContractRecordStore['listClosed']>[0]) =>
          store.listClosed(q).then((rows) => rows.map((c) => c.contractId).sort());
        assert.deepEqual(await only({ statuses: ['cancelled-absent'], limit: 100 }), ['c-b', 'c-d']);
        assert.deepEqual(await only({ contractCodes: ['FOS'], limit: 100 }), ['c-d', 'c-e']);
        assert.deepEqual(
          await only({ statuses: ['settled-fully-met'], contractCodes: ['FDP'], limit: 100 }),
          ['c-a', 'c-c'],
        );

        const seen: string[] = [];
        let page = await store.listClosed({ limit: 2 });
        seen.push(...page.map((c) => c.contractId));
        await store.save(record('c-f', 'settled-fully-met'));
        while (page.length === 2) {
          const last = page[page.length - 1]!;
          page = await store.listClosed({
            limit: 2,
            after: { closedAt: last.closedAt, contractId: last.contractId },
          });
          seen.push(...page.map((c) => c.contractId));
        }
        assert.deepEqual(
          seen,
          all.map((c) => c.contractId),
          'every row once, in order, the new one not mixed in',
        );
        assert.equal(
          (await store.listClosed({ limit: 1 }))[0]?.contractId,
          'c-f',
          'a fresh listing starts with it',
        );
      } finally {
        await store.close();
      }
    });
  });
}
