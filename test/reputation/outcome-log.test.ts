// The outcome log on both dialects: each party's record is written once however often an ending is
// appended; appends from two connections at once still make one unbroken chain; the chain verifies.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openOutcomeLog } from '../../store/outcomes';
import { verifyChain } from '../../workflows/rules/outcomes';
import { startPostgres, type PostgresServer } from '../support/postgres';
import { agent, entriesOf } from './fixtures';

type Config = Parameters<typeof openOutcomeLog>[0];
let dir = '';
let server: PostgresServer | undefined;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oc-outcomes-'));
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const dialects: Array<[string, (name: string) => Promise<Config>]> = [
  ['sqlite', async (name) => ({ kind: 'sqlite', path: join(dir, `${name}.sqlite`) })],
  [
    'postgres',
    async (name) => ({
      kind: 'postgres',
      connectionString: await server!.createDatabase(name),
      schema: 'oc',
    }),
  ],
];

for (const [name, config] of dialects) {
  describe(`outcome log on ${name}`, () => {
    test('an ending appended twice writes each party once; a milestone ending is its own', async () => {
      const log = await openOutcomeLog(await config('once'));
      try {
        const votes = [
          { backupAgent: agent(7), criterionIndex: 0, vote: 'met' as const },
          { backupAgent: agent(7), criterionIndex: 1, vote: 'no vote' as const },
        ];
        const entries = entriesOf({ contractId: 'c-1', ending: 'panel', votes });
        assert.deepEqual(await log.append({ contractId: 'c-1', milestoneIndex: null, entries }), {
          appended: 3,
          head: 3,
        });
        assert.deepEqual(await log.append({ contractId: 'c-1', milestoneIndex: null, entries }), {
          appended: 0,
          head: 3,
        });
        const milestone = entriesOf({ contractId: 'c-1', milestoneIndex: 0 });
        assert.equal(
          (await log.append({ contractId: 'c-1', milestoneIndex: 0, entries: milestone })).appended,
          2,
        );
        const all = await log.list(0, 100);
        assert.deepEqual(
          all.map((r) => [r.sequence, r.role, r.milestoneIndex]),
          [
            [1, 'client', null],
            [2, 'worker', null],
            [3, 'backup-agent', null],
            [4, 'client', 0],
            [5, 'worker', 0],
          ],
        );
        assert.deepEqual(all[2]!.votes, ['met', 'no vote']);
        assert.deepEqual(verifyChain(all), []);
        assert.deepEqual(await log.head(), { sequence: 5, hash: all[4]!.hash });
        assert.deepEqual(
          (await log.listByParty(agent(2), 0, 10)).map((r) => r.sequence),
          [2, 5],
        );
      } finally {
        await log.close();
      }
    });

    test('two connections appending at once make one unbroken chain', async () => {
      const cfg = await config('race');
      const [a, b] = [await openOutcomeLog(cfg), await openOutcomeLog(cfg)];
      try {
        await Promise.all(
          Array.from({ length: 40 }, (_, i) => {
            const contractId = `c-${i % 20}`;
            // Each contract's ending goes to both connections: a retry racing the first write.
            return (i % 2 === 0 ? a : b).append({
              contractId,
              milestoneIndex: null,
              entries: entriesOf({ contractId }),
            });
          }),
        );
        const all = await a.list(0, 1000);
        assert.equal(all.length, 40);
        assert.deepEqual(verifyChain(all), []);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}
