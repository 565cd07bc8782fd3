// A black-box hostile session against the contract worker's task slots (docs/scale.md, "Why a task sometimes
// timed out on a live worker"): an attacker with many keys and some money keeps the worker busy with contracts
// of its own, and reads the honest parties' contract without pause (a contract's view is public), so that its
// queries reach the worker while that contract's own task waits on a ledger posting. The honest Client and
// Worker run their contracts step by step; every step must be answered 2xx within seconds, and both must end
// with nothing held. The attacker is taken to have many addresses: the per-host and per-address rate limits
// are raised.
//
//   npx tsx bench/hostile/timed-reads-session.ts
import {
  balances,
  create,
  deposit,
  DELIVERY,
  newKey,
  report,
  runSession,
  send,
  terms,
  USDC,
  type Key,
} from './session-kit';

/** The attacker's contracts in flight at once, each run from creation to approval again and again. */
const BUSY_CONTRACTS = 40;
/** The attacker's readers, each reading the honest contract of the moment without pause. */
const READERS = 30;
const HONEST_CONTRACTS = 10;
/** An honest step's answer: seconds at most, never the 10 s of a lost workflow task. */
const STEP_WITHIN_MS = 5_000;
const PRICE = (25n * USDC) / 10n;

interface Step {
  step: string;
  status: number;
  ms: number;
}

/** One direct-award contract from creation to approval; `seen` hears of its ID and of every step. */
async function runContract(
  client: Key,
  worker: Key,
  seen: { created?: (id: string) => void; step?: (step: Step) => void } = {},
): Promise<void> {
  const started = Date.now();
  const id = await create(client, terms({ awardMethod: 'direct', worker: worker.address }));
  seen.step?.({ step: 'create', status: 201, ms: Date.now() - started });
  seen.created?.(id);
  const steps: Array<[string, Key, string, object]> = [
    ['accept', worker, `/contracts/${id}/accept`, {}],
    ['deliver', worker, `/contracts/${id}/deliveries`, DELIVERY],
    ['approve', client, `/contracts/${id}/approve`, {}],
  ];
  for (const [step, who, path, body] of steps) {
    const answer = await send(who, 'POST', path, body);
    seen.step?.({ step, status: answer.status, ms: answer.ms });
  }
}

void runSession(
  {
    OPENCONTRACT_RATE_LIMIT_HOST: '100000/100000',
    OPENCONTRACT_RATE_LIMIT_ADDRESS: '100000/100000',
    OPENCONTRACT_RATE_LIMIT_UNVERIFIED: '100000/100000',
  },
  async () => {
    // A pair of keys per contract in flight: each key's own rate limit is no bar to an attacker with many.
    const pairs = Array.from({ length: BUSY_CONTRACTS }, () => ({ client: newKey(), worker: newKey() }));
    const perKey = 100n * USDC;
    for (const pair of pairs) {
      await deposit(pair.client, perKey);
      await deposit(pair.worker, perKey);
    }
    const honestClient = newKey();
    const honestWorker = newKey();
    await deposit(honestClient, BigInt(HONEST_CONTRACTS) * PRICE);
    await deposit(honestWorker, 10n * USDC);

    let attacking = true;
    let busyContracts = 0;
    let reads = 0;
    const target = { id: '' };
    const busy = pairs.map(async ({ client, worker }) => {
      while (attacking) {
        let settled = true;
        await runContract(client, worker, { step: (step) => (settled &&= step.status < 300) }).catch(
          () => (settled = false),
        );
        if (settled) busyContracts++;
      }
    });
    const readers = Array.from({ length: READERS }, async () => {
      while (attacking) {
        if (target.id) {
          await send(undefined, 'GET', `/contracts/${target.id}`);
          reads++;
        } else {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    });

    // Let the attacker's contracts fill the worker first.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const honest: Step[] = [];
    for (let i = 0; i < HONEST_CONTRACTS; i++) {
      await runContract(honestClient, honestWorker, {
        created: (id) => (target.id = id),
        step: (step) => honest.push(step),
      });
    }
    attacking = false;
    await Promise.all([...busy, ...readers]);

    const slowest = honest.reduce((a, b) => (b.ms > a.ms ? b : a));
    const failed = honest.filter((s) => s.status >= 300);
    const [client, worker] = [await balances(honestClient), await balances(honestWorker)];
    report(
      'reads timed against the parties’ messages',
      `${READERS} readers read the honest contract without pause (${reads} reads) while ${BUSY_CONTRACTS} of the attacker's contracts run at once (${busyContracts} settled); the honest pair runs ${HONEST_CONTRACTS} contracts`,
      failed.length === 0 && slowest.ms <= STEP_WITHIN_MS && client.held === 0n && worker.held === 0n,
      `honest steps ${honest.length}, refused ${failed.map((s) => `${s.step} ${s.status}`).join(',') || 'none'}; slowest ${slowest.step} ${slowest.ms} ms; held: client ${client.held}, worker ${worker.held}`,
    );
    return {
      money: {
        keys: 2 * BUSY_CONTRACTS,
        deposited: (2n * perKey * BigInt(BUSY_CONTRACTS)).toString(),
      },
      reads,
      busyContracts,
      honestSlowestMs: slowest.ms,
    };
  },
);
