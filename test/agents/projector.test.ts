// The feed projector's pacing against a real feed store (SQLite) and a counted contract source: a hot
// contract that shows nothing new is looked at less and less often but never less than once per
// `hotMaxGapMs`, a change or a touch brings it back to every pass, and the sweep of open contracts
// looks at no more than `sweepBatch` contracts a pass and starts once per `sweepMs`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createFeedProjector, type ContractSource } from '../../store/agent-feed/projector';
import { openFeed } from '../../store/agent-feed';
import type { ContractView } from '../../workflows/definitions';
import type { ContractEvent } from '../../workflows/rules/events';
import { CLIENT, WORKER } from '../support/fixtures';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const DAY = 86_400_000;
const SETTINGS = {
  intervalMs: 500,
  hotMaxGapMs: 8_000,
  sweepMs: 30_000,
  sweepBatch: 10,
  hotMs: 120_000,
  reminderLeadMs: 1_000,
};

/** Contracts whose logs the test grows by hand; every look (one snapshot) is counted per contract. */
function countedSource() {
  const logs = new Map<string, ContractEvent[]>();
  const looks = new Map<string, number>();
  const source: ContractSource = {
    async snapshot(id) {
      looks.set(id, (looks.get(id) ?? 0) + 1);
      const view = {
        contractId: id,
        status: 'created',
        awardMethod: 'direct',
        verificationMode: 'privacy-preserving',
        client: CLIENT,
        worker: WORKER,
        backupAgents: [],
        deadlines: {
          match: iso(DAY),
          withdrawal: iso(2 * DAY),
          delivery: iso(3 * DAY),
          review: iso(4 * DAY),
        },
        voting: null,
        nextDeadline: { kind: 'match', at: iso(DAY) },
      } as unknown as ContractView;
      return { view, events: [...(logs.get(id) ?? [])], ballotsCast: [] };
    },
  };
  const create = (id: string) =>
    logs.set(id, [
      {
        type: 'contract.created',
        contractId: id,
        at: iso(0),
        actor: CLIENT,
        worker: WORKER,
        contractCode: 'DFP',
        deadlines: { match: iso(DAY), withdrawal: iso(2 * DAY), delivery: iso(3 * DAY) },
      } as unknown as ContractEvent,
    ]);
  const append = (id: string, type: string) =>
    logs.get(id)!.push({ type, contractId: id, at: iso(1), actor: WORKER } as unknown as ContractEvent);
  return { source, looks, create, append };
}

let dir = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'oc-projector-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** `count` projectors (one per API process) on one store, one contract source and one clock. */
async function setup(name: string, count = 1) {
  const store = await openFeed({ dataDir: join(dir, name), ledger: { kind: 'sqlite' } });
  const counted = countedSource();
  let clock = T0;
  const projectors = Array.from({ length: count }, () =>
    createFeedProjector({
      store,
      source: counted.source,
      settings: SETTINGS,
      now: () => clock,
    }),
  );
  /** Runs the passes of `ms` of the projectors' clock, each projector's in turn; when a contract was looked at. */
  const run = async (ms: number, id?: string) => {
    const at: number[] = [];
    for (const end = clock + ms; clock < end; clock += SETTINGS.intervalMs) {
      for (const projector of projectors) {
        const before = id === undefined ? 0 : (counted.looks.get(id) ?? 0);
        await projector.pass();
        if (id !== undefined && (counted.looks.get(id) ?? 0) > before) at.push(clock);
      }
    }
    return at;
  };
  return { store, projector: projectors[0]!, run, ...counted };
}

describe('feed projector pacing', () => {
  test('a hot contract with nothing new: looked at less often, never more than hotMaxGapMs apart', async () => {
    const { store, projector, run, create } = await setup('hot');
    try {
      create('c-hot');
      await projector.touch('c-hot');
      const at = await run(SETTINGS.hotMs, 'c-hot');
      const gaps = at.slice(1).map((t, i) => t - at[i]!);
      // 240 passes while hot; every pass looking would be 240 looks (a query each).
      assert.ok(at.length >= 15 && at.length <= 25, `looked at ${at.length} times in 2 minutes`);
      assert.ok(Math.max(...gaps) <= SETTINGS.hotMaxGapMs, `longest gap ${Math.max(...gaps)} ms`);
      assert.deepEqual(gaps.slice(0, 4), [500, 1000, 2000, 4000]);
    } finally {
      await store.close();
    }
  });

  test('three projectors on one store take turns: a hot contract is looked at as often as by one', async () => {
    const one = await setup('hot-alone');
    const three = await setup('hot-three', 3);
    try {
      const lookTimes = async (s: typeof one) => {
        s.create('c-hot');
        await s.projector.touch('c-hot');
        return s.run(SETTINGS.hotMs, 'c-hot');
      };
      const alone = await lookTimes(one);
      const shared = await lookTimes(three);
      assert.deepEqual(shared, alone, 'the same looks, at the same times');
      assert.equal(three.looks.get('c-hot'), alone.length);
    } finally {
      await one.store.close();
      await three.store.close();
    }
  });

  test('a change is seen within hotMaxGapMs and brings the next look back to the next pass; a touch at once', async () => {
    const { store, projector, run, create, append, looks } = await setup('change');
    try {
      create('c-1');
      await projector.touch('c-1');
      await run(40_000, 'c-1'); // backed off to the longest gap
      append('c-1', 'contract.accepted');
      const seen = await run(SETTINGS.hotMaxGapMs, 'c-1');
      assert.equal(seen.length, 1, 'the change is seen within the longest gap');
      const next = await run(SETTINGS.intervalMs, 'c-1');
      assert.equal(next.length, 1, 'the look after a change comes one pass later');
      await run(20_000); // backed off again
      const before = looks.get('c-1')!;
      await projector.touch('c-1');
      await projector.pass();
      assert.equal(looks.get('c-1'), before + 1, 'a touch looks at the next pass');
    } finally {
      await store.close();
    }
  });

  test('the sweep: at most sweepBatch open contracts a pass, all of them once, then none until sweepMs', async () => {
    const { store, run, create, looks } = await setup('sweep');
    try {
      const ids = Array.from({ length: 35 }, (_, i) => `c-${String(i).padStart(2, '0')}`);
      for (const id of ids) {
        create(id);
        await store.touch(id, 0); // known to the feed, not hot
      }
      const seen = () => [...looks.values()].reduce((a, b) => a + b, 0);
      const perPass: number[] = [];
      for (let i = 0; i < 6; i++) {
        const before = seen();
        await run(SETTINGS.intervalMs);
        perPass.push(seen() - before);
      }
      assert.deepEqual(perPass, [10, 10, 10, 5, 0, 0]);
      assert.ok(
        ids.every((id) => looks.get(id) === 1),
        'every open contract looked at once',
      );
      await run(SETTINGS.sweepMs - 6 * SETTINGS.intervalMs);
      assert.equal(seen(), 35, 'no look before the next sweep');
      await run(4 * SETTINGS.intervalMs);
      assert.ok(
        ids.every((id) => looks.get(id) === 2),
        'the next sweep looks at each again',
      );
    } finally {
      await store.close();
    }
  });
});
