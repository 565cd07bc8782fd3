// The agent feed's store on both dialects: a projection commits once (a second projector that read the
// same position writes nothing), entries come back per agent in id order after a cursor, a repeated
// entry is a no-op, the agent's contracts page newest first, and a webhook's delivery state moves only
// forward. Reopened (another process after a restart), everything is still there.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openFeed } from '../../store/agent-feed';
import type { DatabaseConfig } from '../../store';
import type { FeedCommit, NewFeedEntry } from '../../store/agent-feed/types';
import { startPostgres, type PostgresServer } from '../support/postgres';
import { BA1, CLIENT, WORKER } from '../support/fixtures';

let dir = '';
let server: PostgresServer | undefined;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oc-feed-'));
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const dialects: Array<[string, (name: string) => Promise<{ dataDir: string; ledger: DatabaseConfig }>]> = [
  ['sqlite', async (name) => ({ dataDir: join(dir, name), ledger: { kind: 'sqlite' } })],
  [
    'postgres',
    async (name) => ({
      dataDir: dir,
      ledger: { kind: 'postgres', connectionString: await server!.createDatabase(name), schema: 'oc' },
    }),
  ],
];

const entry = (agent: string, contractId: string, i: number): NewFeedEntry => ({
  agent,
  contractId,
  type: 'contract.event',
  at: new Date(1_000 + i).toISOString(),
  event: { type: 'contract.created', position: i },
  dedup: `e:${contractId}:${i}:${agent}`,
});

const commit = (
  contractId: string,
  expected: number,
  projected: number,
  over: Partial<FeedCommit> = {},
): FeedCommit => ({
  contractId,
  expected,
  projected,
  closed: false,
  dueAt: null,
  entries: Array.from({ length: projected - expected }, (_, k) => [
    entry(CLIENT, contractId, expected + k),
    entry(WORKER, contractId, expected + k),
  ]).flat(),
  roles: [
    { agent: CLIENT, role: 'client', since: 10 },
    { agent: WORKER, role: 'worker', since: 10 },
  ],
  ...over,
});

for (const [name, config] of dialects) {
  describe(`the agent feed store on ${name}`, () => {
    test('a look is taken by one caller at a time and paced: quiet looks further apart, a change or a touch close', async () => {
      const store = await openFeed(await config('looks'));
      const pace = { shortestMs: 500, longestMs: 8_000 };
      try {
        await store.touch('c-l', 600_000);
        assert.deepEqual(await store.dueContracts(1_000, 10), ['c-l']);
        assert.deepEqual(await store.claimLook('c-l', 1_000, pace), { gap: 500 });
        // Another projector, the same instant: the look is taken.
        assert.equal(await store.claimLook('c-l', 1_000, pace), undefined);
        assert.deepEqual(await store.dueContracts(1_499, 10), []);
        // Quiet looks: each gap twice the last, up to the longest.
        const gaps: number[] = [];
        for (let at = 1_500, i = 0; i < 6; i++) {
          assert.deepEqual(await store.dueContracts(at, 10), ['c-l']);
          const claim = await store.claimLook('c-l', at, pace);
          gaps.push(claim!.gap);
          at += claim!.gap;
        }
        assert.deepEqual(gaps, [1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
        // A look that found something: the next one soon, then the gaps grow from there.
        await store.lookChanged('c-l', 100_000, 500);
        assert.deepEqual(await store.dueContracts(100_499, 10), []);
        assert.deepEqual(await store.claimLook('c-l', 100_500, pace), { gap: 1_000 });
        // A touch (a message sent) makes the next look due at once, from the shortest gap.
        await store.touch('c-l', 600_000);
        assert.deepEqual(await store.claimLook('c-l', 100_600, pace), { gap: 500 });
      } finally {
        await store.close();
      }
    });

    test('commits once per position, reads in order after a cursor, survives a reopen', async () => {
      const cfg = await config('feed');
      const store = await openFeed(cfg);
      try {
        assert.deepEqual(await store.commit(commit('c-1', 0, 2)), {
          committed: true,
          agents: [CLIENT, WORKER],
        });
        // Another projector that read position 0 too: nothing written.
        assert.deepEqual(await store.commit(commit('c-1', 0, 2)), { committed: false, agents: [] });
        assert.deepEqual(await store.commit(commit('c-2', 0, 1, { closed: true })), {
          committed: true,
          agents: [CLIENT, WORKER],
        });
        assert.deepEqual(await store.commit(commit('c-1', 2, 3)), {
          committed: true,
          agents: [CLIENT, WORKER],
        });
        // An entry already written (same dedup) is a no-op.
        const again = await store.commit(commit('c-1', 3, 3, { entries: [entry(CLIENT, 'c-1', 0)] }));
        assert.deepEqual(again, { committed: true, agents: [] });

        const mine = await store.read(CLIENT, 0, 100);
        assert.deepEqual(
          mine.map((e) => [e.contractId, e.event?.position]),
          [
            ['c-1', 0],
            ['c-1', 1],
            ['c-2', 0],
            ['c-1', 2],
          ],
        );
        const ids = mine.map((e) => Number(e.id));
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
        );
        assert.deepEqual(await store.read(CLIENT, ids[1]!, 100), mine.slice(2));
        assert.deepEqual(await store.read(BA1, 0, 100), []);
        assert.deepEqual(await store.projection('c-1'), { projected: 3, closed: false });
        assert.deepEqual(await store.projection('c-2'), { projected: 1, closed: true });
        assert.deepEqual(await store.openContracts(10), ['c-1']);

        const listed = await store.agentContracts({ agent: WORKER, limit: 10 });
        assert.deepEqual(listed.map((r) => [r.contractId, r.roles, r.closed]).sort(), [
          ['c-1', ['worker'], false],
          ['c-2', ['worker'], true],
        ]);
        const first = await store.agentContracts({ agent: WORKER, limit: 1 });
        const rest = await store.agentContracts({ agent: WORKER, limit: 10, before: first[0]! });
        assert.deepEqual([...first, ...rest].map((r) => r.contractId).sort(), ['c-1', 'c-2']);
        assert.deepEqual(
          (await store.agentContracts({ agent: WORKER, limit: 10, open: true })).map((r) => r.contractId),
          ['c-1'],
        );
        assert.deepEqual(await store.agentContracts({ agent: WORKER, role: 'client', limit: 10 }), []);

        await store.touch('c-3', 5_000);
        assert.deepEqual(await store.dueContracts(4_000, 10), ['c-3']);
        assert.deepEqual(await store.dueContracts(6_000, 10), []);

        await store.addSubscription({
          id: 'wh_1',
          agent: WORKER,
          url: 'https://h/x',
          secret: 's',
          createdAt: 'now',
        });
        await store.failed('wh_1', 'the receiver answered 500', 'then');
        await store.delivered('wh_1', 7, 'later');
        await store.delivered('wh_1', 5, 'later');
        const [sub] = await store.subscriptions(WORKER);
        assert.deepEqual(
          [sub!.deliveredThrough, sub!.failures, sub!.lastError],
          [7, 0, 'the receiver answered 500'],
        );
        assert.equal(await store.deleteSubscription(CLIENT, 'wh_1'), false);
        assert.equal(await store.deleteSubscription(WORKER, 'wh_1'), true);
        assert.equal(await store.subscription('wh_1'), undefined);
      } finally {
        await store.close();
      }
      const reopened = await openFeed(cfg);
      try {
        assert.equal((await reopened.read(CLIENT, 0, 100)).length, 4);
      } finally {
        await reopened.close();
      }
    });
  });
}
