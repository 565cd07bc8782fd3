// Should the embedded default put the API's stores and the ledger in one SQLite file or keep them
// apart? Two processes write at once, as the API and the worker do: the "API" commits one small row
// per request (a nonce), the "worker" commits a three-row transaction (a ledger posting). Run with
// the two tables in one file, then in two files, and compare each writer's commits per second.
// A third run puts the API's four stores (nonces, idempotency, vault, payouts) in one file against
// four files inside one process, the case where no second process competes.
//   npx tsx bench/store/sqlite-files.ts [seconds per run, default 3]   (4 alternating rounds)
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteFile } from '../../store/sqlite/open';

interface Report {
  commits: number;
  p99Ms: number;
}

const ROUNDS = 4;

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.99)] ?? 0;
}

/** One writer: commits into `tables` (round robin) of the files given, until `ms` has passed. */
function write(files: string[], rowsPerCommit: number, ms: number): Report {
  const dbs = files.map((path, i) => {
    const db = openSqliteFile(path);
    db.exec(`CREATE TABLE IF NOT EXISTS t${i}_${rowsPerCommit} (k TEXT PRIMARY KEY, v BLOB)`);
    return db.transaction((n: number) => {
      const insert = db.prepare(`INSERT INTO t${i}_${rowsPerCommit} (k, v) VALUES (?, ?)`);
      for (let r = 0; r < rowsPerCommit; r++) insert.run(`${process.pid}-${n}-${r}`, Buffer.alloc(64));
    });
  });
  const latencies: number[] = [];
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) {
    const started = performance.now();
    dbs[n % dbs.length]!(n);
    latencies.push(performance.now() - started);
    n++;
  }
  return { commits: n, p99Ms: p99(latencies) };
}

function child(files: string[], rowsPerCommit: number, ms: number): Promise<Report> {
  return new Promise((resolve, reject) => {
    const proc = fork(__filename, ['--child', JSON.stringify({ files, rowsPerCommit, ms })], {
      execArgv: ['--import', 'tsx'],
    });
    proc.once('message', (m) => resolve(m as Report));
    proc.once('error', reject);
  });
}

async function twoProcesses(dir: string, shared: boolean, ms: number) {
  const ledger = join(dir, 'ledger.sqlite');
  const api = shared ? ledger : join(dir, 'api.sqlite');
  const [apiReport, workerReport] = await Promise.all([child([api], 1, ms), child([ledger], 3, ms)]);
  return { api: apiReport, worker: workerReport };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 3);
  const ms = seconds * 1000;
  // On the disk the data dir is on (not a tmpfs), as the service's files are.
  mkdirSync('.data', { recursive: true });
  const dir = mkdtempSync(join('.data', 'bench-sqlite-files-'));
  try {
    // Alternating rounds, so a noisy neighbour on the machine weighs on both layouts alike.
    const apart: Array<{ api: Report; worker: Report }> = [];
    const together: Array<{ api: Report; worker: Report }> = [];
    const fourFiles: Report[] = [];
    const oneFile: Report[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const at = join(dir, String(round));
      const pair = [
        async () => apart.push(await twoProcesses(join(at, 'apart'), false, ms)),
        async () => together.push(await twoProcesses(join(at, 'together'), true, ms)),
      ];
      for (const run of round % 2 ? pair.reverse() : pair) await run();
      const stores = ['nonces', 'idempotency', 'vault', 'payouts'];
      fourFiles.push(
        await child(
          stores.map((n) => join(at, 'four', `${n}.sqlite`)),
          1,
          ms,
        ),
      );
      oneFile.push(
        await child(
          stores.map(() => join(at, 'one', 'api.sqlite')),
          1,
          ms,
        ),
      );
    }
    const total = (rs: Report[]) => rs.reduce((sum, r) => sum + r.commits, 0);
    const perSecond = (rs: Report[]) => Math.round(total(rs) / (seconds * rs.length));
    const p99s = (rs: Report[]) => rs.map((r) => r.p99Ms.toFixed(1)).join('/');
    const line = (rs: Report[]) => `${perSecond(rs)} commits/s (p99 ms per round ${p99s(rs)})`;
    console.log(`API and worker processes writing at once, ${ROUNDS} rounds of ${seconds} s:`);
    for (const [name, runs] of [
      ['two files', apart],
      ['one file', together],
    ] as const) {
      console.log(
        `  ${name}: API ${line(runs.map((r) => r.api))}, worker ${line(runs.map((r) => r.worker))}`,
      );
    }
    const ratio = (a: Report[], b: Report[]) => (total(a) / total(b)).toFixed(2);
    console.log(
      `  one file / two files: API ${ratio(
        together.map((r) => r.api),
        apart.map((r) => r.api),
      )}, ` +
        `worker ${ratio(
          together.map((r) => r.worker),
          apart.map((r) => r.worker),
        )}`,
    );
    console.log(`The API's four stores in one process, ${ROUNDS} rounds of ${seconds} s:`);
    console.log(`  four files: ${line(fourFiles)}`);
    console.log(`  one file: ${line(oneFile)}`);
    console.log(`  one file / four files: ${ratio(oneFile, fourFiles)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const { files, rowsPerCommit, ms } = JSON.parse(process.argv[3]!) as {
    files: string[];
    rowsPerCommit: number;
    ms: number;
  };
  process.send!(write(files, rowsPerCommit, ms));
  process.disconnect();
} else {
  void main();
}
