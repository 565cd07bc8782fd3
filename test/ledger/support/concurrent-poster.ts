// A separate OS process that posts to a shared ledger, for the concurrency test. It runs a few
// concurrent lanes, sends every operation twice (a retry), and prints what each call answered as
// JSON on stdout. Once loaded it says `ready` on stderr and starts when a line arrives on stdin, so two
// posters overlap however slowly each loads. Usage: node --import tsx concurrent-poster.ts <config json> <worker> <ops per lane>
import { LedgerError, openLedger } from '../../../store/ledger';
import type { LedgerConfig, LedgerOp, Owner } from '../../../store/ledger';

export const SHARED_AGENTS: Owner[] = [
  '0x' + 'a'.repeat(40),
  '0x' + 'b'.repeat(40),
  '0x' + 'c'.repeat(40),
  '0x' + 'd'.repeat(40),
].map((a) => `agent:${a}` as Owner);
export const LANES = 3;

export interface CallReport {
  op: LedgerOp;
  answers: string[]; // per call: 'applied' | 'replayed' | an error code
}

export interface PosterReport {
  worker: string;
  startedAt: number;
  finishedAt: number;
  calls: CallReport[];
}

/** Deterministic pseudo-random numbers, so a failing run can be replayed from its worker name. */
function random(seed: string): () => number {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 2 ** 32;
  };
}

export const JSON_BIGINT = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? `${value}n` : value;
export const PARSE_BIGINT = (_key: string, value: unknown) =>
  typeof value === 'string' && /^\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value;

async function main(): Promise<void> {
  const [configJson, worker, perLane] = process.argv.slice(2);
  const config = JSON.parse(configJson!) as LedgerConfig;
  const ledger = await openLedger(config);
  const calls: CallReport[] = [];

  const twice = async (op: LedgerOp): Promise<string[]> => {
    const answers: string[] = [];
    for (let i = 0; i < 2; i++) {
      try {
        const [result] = await ledger.batch([op]);
        answers.push(result!.replayed ? 'replayed' : 'applied');
      } catch (error) {
        if (!(error instanceof LedgerError)) throw error;
        answers.push(error.code);
      }
    }
    calls.push({ op, answers });
    return answers;
  };

  const lane = async (laneNo: number) => {
    const next = random(`${worker}:${laneNo}`);
    const pick = () => SHARED_AGENTS[Math.floor(next() * SHARED_AGENTS.length)]!;
    for (let i = 0; i < Number(perLane); i++) {
      const id = `${worker}:${laneNo}:${i}`;
      const amount = BigInt(1 + Math.floor(next() * 300));
      const roll = next();
      if (roll < 0.5) {
        const from = pick();
        let to = pick();
        if (to === from) to = 'treasury';
        await twice({ kind: 'transfer', id, asset: 'USDC', from, to, amount });
      } else if (roll < 0.8) {
        const owner = pick();
        const held = await twice({
          kind: 'hold',
          id,
          owner,
          asset: 'USDC',
          amount,
          holdKind: 'stake',
          contractId: id,
        });
        if (!held.includes('applied')) continue;
        const share = amount / 3n;
        await twice({
          kind: 'resolve',
          id: `${id}:settle`,
          holdId: id,
          parts: [
            { to: pick(), amount: share },
            { to: 'treasury', amount: share },
            { to: owner, amount: amount - 2n * share },
          ],
        });
      } else {
        // The same operation, sent by every worker: it must apply exactly once.
        const k = Math.floor(next() * 20);
        await twice({
          kind: 'deposit',
          id: `shared:${k}`,
          asset: 'USDC',
          to: SHARED_AGENTS[k % SHARED_AGENTS.length]!,
          amount: 7n,
        });
      }
    }
  };

  process.stderr.write('ready\n');
  await new Promise((go) => process.stdin.once('data', go));
  process.stdin.pause();
  const startedAt = Date.now();
  await Promise.all(Array.from({ length: LANES }, (_, n) => lane(n)));
  const report: PosterReport = { worker: worker!, startedAt, finishedAt: Date.now(), calls };
  await ledger.close();
  process.stdout.write(JSON.stringify(report, JSON_BIGINT));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
