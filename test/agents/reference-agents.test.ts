// The reference agents as a user runs them: separate processes — a Client script, `npm run agent --
// worker` and three `npm run agent -- backup-agent` — against the API over HTTP. Nothing passes
// between them but the Worker's address, which the Client names: the Worker finds the award in its
// own feed, the Backup Agents find their seats in theirs. A privacy-preserving contract with one
// machine-checked criterion goes through a dispute to settlement; the Worker and one Backup Agent
// are killed (SIGKILL) mid-way and started again, and no step is missed or done twice. Balances exact.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { addressFromPrivateKey, randomPrivateKey } from '../../sdk/typescript';
import { agent, balancesOf, fixedTerms, fund, sharedAccounts, sharedAccountsChange } from '../e2e/support';
import {
  DISPUTE_BOND,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  PANEL_FEE,
  PRICE,
  REWARD,
  SECOND,
} from '../support/fixtures';
import { useServiceHarness } from '../support/service';
import { until } from './support';

// A short appeal window: after the panel's tally nobody appeals, and the contract settles once it passes.
const h = useServiceHarness({ params: { appealWindow: 3_000 } });
const root = join(__dirname, '..', '..');
const BA_FUNDS = 120_000_000n;
const stateDir = mkdtempSync(join(tmpdir(), 'oc-agents-'));
const running = new Set<ChildProcess>();
after(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(stateDir, { recursive: true, force: true });
});

interface Proc {
  lines: Record<string, unknown>[];
  child: ChildProcess;
  exited: Promise<number | null>;
}

/** Starts `script` with `args` as its own process; its JSON stdout lines are collected (and `log` keeps every run's). */
function start(
  script: string,
  args: string[],
  env: Record<string, string>,
  log: Record<string, unknown>[] = [],
): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', OPENCONTRACT_API_URL: h().url(), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      log.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not a log line
    }
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { lines: log, child, exited };
}

function referenceAgent(
  role: string,
  key: string,
  log: Record<string, unknown>[],
  env: Record<string, string> = {},
): Proc {
  return start(
    'agents/run.ts',
    [role],
    {
      OPENCONTRACT_PRIVATE_KEY: key,
      OPENCONTRACT_AGENT_STATE_DIR: stateDir,
      OPENCONTRACT_AGENT_RESCAN_MS: '2000',
      ...(role === 'worker' ? { OPENCONTRACT_WORKER_HANDLER: join(__dirname, 'evidence-handler.ts') } : {}),
      ...env,
    },
    log,
  );
}

/** A funded Client in this process and a funded reference Worker in its own, with the Worker's log. */
async function clientAndReferenceWorker() {
  const keys = { client: randomPrivateKey(), worker: randomPrivateKey() };
  await fund(h(), addressFromPrivateKey(keys.client));
  await fund(h(), addressFromPrivateKey(keys.worker));
  const workerLog: Record<string, unknown>[] = [];
  const worker = referenceAgent('worker', keys.worker, workerLog);
  return { keys, client: agent(h(), keys.client), worker, workerLog };
}

const count = (log: Record<string, unknown>[], event: string) => log.filter((l) => l.event === event).length;

async function kill(p: Proc): Promise<void> {
  p.child.kill('SIGKILL');
  await p.exited;
}

describe('reference agents in separate processes', () => {
  test('a dispute to settlement: the Worker and the Backup Agents find their steps by themselves', async () => {
    const keys = {
      client: randomPrivateKey(),
      worker: randomPrivateKey(),
      bas: [0, 1, 2].map(() => randomPrivateKey()),
    };
    const shared = await sharedAccounts(h());
    await fund(h(), addressFromPrivateKey(keys.client));
    await fund(h(), addressFromPrivateKey(keys.worker));
    for (const key of keys.bas) await fund(h(), addressFromPrivateKey(key), BA_FUNDS);

    const workerLog: Record<string, unknown>[] = [];
    // The first Worker process works a minute on its delivery: the kill lands mid-work, before it delivers.
    let worker = referenceAgent('worker', keys.worker, workerLog, { EVIDENCE_HANDLER_HOLD_MS: '60000' });
    const baLogs = keys.bas.map(() => [] as Record<string, unknown>[]);
    const bas = keys.bas.map((key, i) => referenceAgent('backup-agent', key, baLogs[i]!));
    await until(
      async () => baLogs.forEach((log) => assert.equal(count(log, 'eligible'), 1, JSON.stringify(log))),
      90_000,
    );

    const client = start('test/agents/client-script.ts', [], {
      OPENCONTRACT_PRIVATE_KEY: keys.client,
      OPENCONTRACT_WORKER_ADDRESS: addressFromPrivateKey(keys.worker),
    });

    // The Worker accepts and starts working; killed then, it comes back and delivers (no second accept).
    await until(async () => assert.equal(count(workerLog, 'working'), 1, JSON.stringify(workerLog)), 60_000);
    assert.equal(count(workerLog, 'accepted'), 1);
    await kill(worker);
    // One Backup Agent is down while the panel is drawn; it comes back and takes its seat.
    await kill(bas[0]!);
    worker = referenceAgent('worker', keys.worker, workerLog);
    await until(
      async () => assert.equal(count(workerLog, 'delivered'), 1, JSON.stringify(workerLog)),
      60_000,
    );
    await until(
      async () =>
        assert.ok(
          client.lines.some((l) => l.event === 'disputed'),
          JSON.stringify(client.lines),
        ),
      60_000,
    );
    bas[0] = referenceAgent('backup-agent', keys.bas[0]!, baLogs[0]!);

    await until(
      async () =>
        assert.ok(
          client.lines.some((l) => l.event === 'settled'),
          JSON.stringify([client.lines, baLogs]),
        ),
      90_000,
    );
    assert.equal(await client.exited, 0);
    const settled = client.lines.find((l) => l.event === 'settled')!;
    assert.deepEqual(settled, { event: 'settled', status: 'settled-fully-met', payment: PRICE.toString() });

    // Each step once across restarts; every Backup Agent voted `met` by the machine check.
    assert.equal(count(workerLog, 'accepted'), 1);
    assert.equal(count(workerLog, 'delivered'), 1);
    for (const log of baLogs) {
      assert.deepEqual(
        log.filter((l) => l.event === 'voted').map((l) => l.votes),
        [['met']],
      );
    }

    // Exact balances, [USDC available, USDC held, OCT available, OCT held]: the unfounded dispute's bond
    // goes to the Treasury; the disputer's panel fee is paid to the Backup Agents, who voted; each keeps
    // its stake locked and earns one reward.
    assert.deepEqual(await balancesOf(agent(h(), keys.client)), [
      FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE,
      0n,
      0n,
      0n,
    ]);
    assert.deepEqual(await balancesOf(agent(h(), keys.worker)), [FUNDS + PRICE, 0n, 0n, 0n]);
    for (const key of keys.bas) {
      assert.deepEqual(await balancesOf(agent(h(), key)), [
        BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE,
        ELIGIBILITY_STAKE,
        REWARD,
        0n,
      ]);
    }
    assert.deepEqual(await sharedAccountsChange(h(), shared), [DISPUTE_BOND, 0n, 0n, 0n, -(3n * REWARD)]);

    await Promise.all([worker, ...bas].map(kill));
    // The API finishes what the killed agents last asked before the harness closes its Temporal client.
    await new Promise((r) => setTimeout(r, 2000));
  });

  test('the reference Worker delivers again after a change request, and is paid in full', async () => {
    const { keys, client, worker, workerLog } = await clientAndReferenceWorker();
    const id = (await client.createContract(fixedTerms(addressFromPrivateKey(keys.worker)))).contractId;
    await until(
      async () => assert.equal(count(workerLog, 'delivered'), 1, JSON.stringify(workerLog)),
      60_000,
    );
    assert.equal((await client.getContract(id)).status, 'under-review');
    await client.requestChanges(id, { criteria: [0], note: 'shorter, please' });
    await until(
      async () => assert.equal(count(workerLog, 'delivered'), 2, JSON.stringify(workerLog)),
      60_000,
    );
    assert.deepEqual(
      workerLog.filter((l) => l.event === 'delivered').map((l) => l.round),
      [0, 1],
    );
    const view = await client.getContract(id);
    assert.equal(view.status, 'under-review');
    assert.equal(view.view === 'party' && view.delivery?.round, 1);
    assert.equal((await client.approve(id)).status, 'settled-fully-met');
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(agent(h(), keys.worker)), [FUNDS + PRICE, 0n, 0n, 0n]);
    await kill(worker);
  });

  test('the reference Worker delivers each milestone in turn, and is paid for each', async () => {
    const { keys, client, worker, workerLog } = await clientAndReferenceWorker();
    const now = Date.now();
    const at = (s: number) => new Date(now + s * SECOND).toISOString();
    const id = (
      await client.createContract({
        contractType: 'fixed',
        awardMethod: 'direct',
        verificationMode: 'privacy-preserving',
        worker: addressFromPrivateKey(keys.worker),
        taskDescription: 'A report in two parts.',
        amount: PRICE.toString(),
        deadlines: { match: at(60), withdrawal: at(61) },
        milestones: [0, 1].map((i) => ({
          title: `part ${i + 1}`,
          acceptanceCriteria: [`criterion of part ${i + 1}`],
          shareBps: 5000,
          deadlines: { delivery: at(120 + 120 * i), review: at(180 + 120 * i) },
        })),
      })
    ).contractId;
    for (const milestone of [0, 1]) {
      await until(
        async () => assert.equal(count(workerLog, 'delivered'), milestone + 1, JSON.stringify(workerLog)),
        60_000,
      );
      const view = await client.getContract(id);
      assert.equal(view.currentMilestone, milestone);
      assert.equal(view.status, 'under-review');
      await client.approve(id);
    }
    assert.deepEqual(
      workerLog.filter((l) => l.event === 'delivered').map((l) => l.milestone),
      [0, 1],
    );
    const settled = await client.getContract(id);
    assert.equal(settled.status, 'settled-fully-met');
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(agent(h(), keys.worker)), [FUNDS + PRICE, 0n, 0n, 0n]);
    await kill(worker);
  });
});
