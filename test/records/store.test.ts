// The contract read model's store on both dialects: a write is kept only when its version is above the
// stored one (compare-and-set), its events replace the log from `from` on, a write that would leave a
// gap in the log is refused, and the listings page open and closed contracts by keyset.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { LedgerConfig } from '../../store/ledger';
import {
  openRecords,
  type ClosedContract,
  type ContractRecord,
  type ContractRecordStore,
  type ContractWrite,
} from '../../store/records';
import { startPostgres, type PostgresServer } from '../support/postgres';

const TERMINAL = ['settled-fully-met', 'cancelled-absent', 'cancelled-by-client'];
const OPEN = ['created', 'matched', 'under-review'];

type Event = ContractRecord['events'][number];
const event = (contractId: string, type: string, at = 1) => ({ type, contractId, at }) as unknown as Event;

function write(
  contractId: string,
  status: string,
  version: number,
  events: { from: number; types: string[] },
  contractCode = 'FDP',
): ContractWrite {
  return {
    contractId,
    version,
    view: {
      contractId,
      status,
      contractCode,
      createdAt: '2026-01-02T03:04:05.000Z',
      nextDeadline: null,
      quoteCount: null,
      created: true,
    } as unknown as ContractWrite['view'],
    votes: { sealed: true },
    ballotsCast: [],
    from: events.from,
    events: events.types.map((t) => event(contractId, t)),
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
  describe(`contract read model on ${name}`, () => {
    test('a higher version replaces the view and the log from `from` on; a lower or equal one changes nothing', async () => {
      const cfg = await config('writes');
      const store = await openRecords(cfg);
      try {
        assert.equal(await store.get('c-1'), undefined);
        const first = write('c-1', 'created', 10, { from: 0, types: ['created'] });
        assert.deepEqual(await store.write(first), { outcome: 'written', storedEvents: 1 });
        // A repeat (an activity retry) or an earlier write arriving late: stale, nothing changes.
        assert.deepEqual(await store.write(first), { outcome: 'stale', storedEvents: 1 });
        const matched = write('c-1', 'matched', 20, { from: 1, types: ['matched'] });
        assert.equal((await store.write(matched)).outcome, 'written');
        assert.equal(
          (await store.write(write('c-1', 'created', 15, { from: 0, types: ['x'] }))).outcome,
          'stale',
        );
        const got = await store.get('c-1');
        assert.equal(got?.version, 20);
        assert.equal(got?.view.status, 'matched');
        assert.deepEqual(
          got?.events.map((e) => e.type),
          ['created', 'matched'],
        );
        // A retried task's write (a higher version) replaces the tail a failed task wrote.
        const retried = write('c-1', 'cancelled-by-client', 30, { from: 1, types: ['cancelled-by-client'] });
        assert.deepEqual(await store.write(retried), { outcome: 'written', storedEvents: 2 });
        assert.deepEqual(
          (await store.get('c-1'))?.events.map((e) => e.type),
          ['created', 'cancelled-by-client'],
        );
      } finally {
        await store.close();
      }
      // A second connection (another process after a restart) reads the same contract.
      const reopened = await openRecords(cfg);
      try {
        assert.equal((await reopened.get('c-1'))?.view.status, 'cancelled-by-client');
      } finally {
        await reopened.close();
      }
    });

    test('a write that would leave a gap in the log is refused: the writer sends the log from what is stored', async () => {
      const store = await openRecords(await config('gaps'));
      try {
        // A lost read model: the workflow believes 3 events are stored.
        const late = write('c-1', 'matched', 40, { from: 3, types: ['delivered'] });
        assert.deepEqual(await store.write(late), { outcome: 'gap', storedEvents: 0 });
        assert.equal(await store.get('c-1'), undefined);
        const full = write('c-1', 'matched', 41, {
          from: 0,
          types: ['created', 'matched', 'x', 'delivered'],
        });
        assert.deepEqual(await store.write(full), { outcome: 'written', storedEvents: 4 });
        assert.equal((await store.get('c-1'))?.events.length, 4);
      } finally {
        await store.close();
      }
    });

    test('concurrent writes of one contract: the highest version stands, the log stays whole', async () => {
      const store = await openRecords(await config('concurrent'));
      try {
        const writes = Array.from({ length: 20 }, (_, i) =>
          write('c-1', i % 2 ? 'created' : 'matched', i + 1, { from: 0, types: Array(i + 1).fill('e') }),
        );
        await Promise.all(writes.map((w) => store.write(w)));
        const got = await store.get('c-1');
        assert.equal(got?.version, 20);
        assert.equal(got?.events.length, 20);
      } finally {
        await store.close();
      }
    });

    test('listings: open by creation, closed by close, filters, pages that an insert in between neither repeats nor skips', async () => {
      const store = await openRecords(await config('listing'));
      try {
        const ids = ['c-a', 'c-b', 'c-c', 'c-d', 'c-e'];
        for (const [i, id] of ids.entries()) {
          const status = i % 2 ? 'cancelled-absent' : 'settled-fully-met';
          await store.write(write(id, 'created', 1, { from: 0, types: ['created'] }, i < 3 ? 'FDP' : 'FOS'));
          await store.write(write(id, status, 2, { from: 1, types: ['end'] }, i < 3 ? 'FDP' : 'FOS'));
        }
        await store.write(write('c-open', 'matched', 1, { from: 0, types: ['created'] }));
        assert.deepEqual(
          (await store.listOpen({ statuses: OPEN, limit: 10 })).map((c) => [c.contractId, c.closedAt]),
          [['c-open', null]],
        );
        const all = await store.listClosed({ statuses: TERMINAL, limit: 100 });
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
            nextDeadline: null,
            quoteCount: null,
          },
        );
        const only = (q: Parameters<ContractRecordStore['listClosed']>[0]) =>
          store.listClosed(q).then((rows) => rows.map((c) => c.contractId).sort());
        assert.deepEqual(await only({ statuses: ['cancelled-absent'], limit: 100 }), ['c-b', 'c-d']);
        assert.deepEqual(await only({ statuses: TERMINAL, contractCodes: ['FOS'], limit: 100 }), [
          'c-d',
          'c-e',
        ]);
        assert.deepEqual(
          await only({ statuses: ['settled-fully-met'], contractCodes: ['FDP'], limit: 100 }),
          ['c-a', 'c-c'],
        );

        const seen: string[] = [];
        let page = await store.listClosed({ statuses: TERMINAL, limit: 2 });
        seen.push(...page.map((c) => c.contractId));
        await store.write(write('c-f', 'settled-fully-met', 1, { from: 0, types: ['created'] }));
        while (page.length === 2) {
          const last = page[page.length - 1]!;
          page = await store.listClosed({
            statuses: TERMINAL,
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
          (await store.listClosed({ statuses: TERMINAL, limit: 1 }))[0]?.contractId,
          'c-f',
          'a fresh listing starts with it',
        );
      } finally {
        await store.close();
      }
    });
  });
}
