// Two OS processes post at the same time to the same accounts of one ledger (a real PostgreSQL
// server; the SQLite file too): every operation applies exactly once (an id sent by both processes
// included), no balance goes below zero, and the final balances are exactly the sum of what applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { openLedger } from '../../store/ledger';
import type { LedgerConfig, LedgerOp, Owner } from '../../store/ledger';
import { describeEachStore } from './stores';
import { PARSE_BIGINT, SHARED_AGENTS } from './support/concurrent-poster';
import type { PosterReport } from './support/concurrent-poster';

const OPS_PER_LANE = 60;
const POSTER = join(__dirname, 'support', 'concurrent-poster.ts');

interface Poster {
  ready: Promise<void>;
  report: Promise<PosterReport>;
  start(): void;
}

/** A poster process: `ready` once it has loaded, posting when `start` is called, its report at the end. */
function spawnPoster(config: LedgerConfig, worker: string): Poster {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', POSTER, JSON.stringify(config), worker, String(OPS_PER_LANE)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    if (err.includes('ready\n')) markReady();
  });
  const report = new Promise<PosterReport>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      markReady();
      if (code !== 0) reject(new Error(`poster ${worker} exited with ${code}:\n${err}`));
      else resolve(JSON.parse(out, PARSE_BIGINT) as PosterReport);
    });
  });
  return { ready, report, start: () => child.stdin.end('go\n') };
}

/** What an applied operation does to posted balances and holds (no checks: it did apply). */
function applyDelta(op: LedgerOp, posted: Map<Owner, bigint>, holds: Map<string, { owner: Owner }>): void {
  const add = (who: Owner, amount: bigint) => posted.set(who, (posted.get(who) ?? 0n) + amount);
  switch (op.kind) {
    case 'deposit':
      add(op.to, op.amount);
      return;
    case 'transfer':
      add(op.from, -op.amount);
      add(op.to, op.amount);
      return;
    case 'hold':
      holds.set(op.id, { owner: op.owner });
      return;
    case 'resolve':
      for (const part of op.parts) {
        add(holds.get(op.holdId)!.owner, -part.amount);
        add(part.to, part.amount);
      }
      return;
    default:
      throw new Error(`the posters do not send ${op.kind}`);
  }
}

describeEachStore('two processes posting concurrently', (store) => {
  test('nothing is lost or doubled and no balance goes below zero', async () => {
    const config = store.newConfig();
    const ledger = await store.openTracked(config);
    const INITIAL = 1000n;
    await ledger.batch(
      SHARED_AGENTS.map((to, i): LedgerOp => ({
        kind: 'deposit',
        id: `fund:${i}`,
        asset: 'USDC',
        to,
        amount: INITIAL,
      })),
    );

    const posters = [spawnPoster(config, 'p1'), spawnPoster(config, 'p2')];
    await Promise.all(posters.map((p) => p.ready)); // both loaded, then both start at once
    for (const p of posters) p.start();
    const reports = await Promise.all(posters.map((p) => p.report));
    const [a, b] = reports as [PosterReport, PosterReport];
    assert.ok(a.startedAt < b.finishedAt && b.startedAt < a.finishedAt, 'the two processes did not overlap');

    const appliedBy = new Map<string, number>();
    const posted = new Map<Owner, bigint>(SHARED_AGENTS.map((o) => [o, INITIAL]));
    const holds = new Map<string, { owner: Owner }>();
    const calls = reports.flatMap((r) => r.calls);
    // Holds first: a resolve's delta needs its hold's owner.
    calls.sort((x, y) => Number(x.op.kind !== 'hold') - Number(y.op.kind !== 'hold'));
    for (const { op, answers } of calls) {
      // Once an operation has applied (here or in the other process), every later call replays it.
      // A call that failed (short of funds) may apply on the retry, as money moves meanwhile.
      const firstDone = answers.findIndex((x) => x === 'applied' || x === 'replayed');
      if (firstDone >= 0) {
        assert.ok(
          answers.slice(firstDone + 1).every((x) => x === 'replayed'),
          `${op.id}: ${answers.join(', ')}`,
        );
      }
      const applied = answers.filter((x) => x === 'applied').length;
      if (applied > 0) {
        appliedBy.set(op.id, (appliedBy.get(op.id) ?? 0) + applied);
        applyDelta(op, posted, holds);
      }
      if (answers.includes('replayed')) appliedBy.set(op.id, appliedBy.get(op.id) ?? 0);
    }
    // Every id that answered at all applied exactly once, across both processes.
    for (const [id, count] of appliedBy) assert.equal(count, 1, `${id} applied ${count} times`);
    const shared = calls.filter((c) => c.op.id.startsWith('shared:'));
    assert.ok(shared.length > 0 && appliedBy.size > 50, `too little happened: ${appliedBy.size} applied`);
    const failed = calls.filter((c) => c.answers[0] === 'InsufficientFunds').length;
    assert.ok(failed > 0, 'no operation ran short of funds: the test did not contend');

    // Read back through a fresh connection, as a third party would.
    const reader = await openLedger(config);
    try {
      for (const owner of [...SHARED_AGENTS, 'treasury' as const]) {
        const balance = (await reader.balances(owner)).USDC;
        assert.ok(balance.available >= 0n, `${owner} is below zero`);
        assert.deepEqual(balance, { available: posted.get(owner) ?? 0n, held: 0n }, owner);
      }
      const report = await reader.audit();
      assert.equal(report.assets.USDC.sum, 0n);
      assert.equal(report.openHolds, 0);
    } finally {
      await reader.close();
    }
  });
});
