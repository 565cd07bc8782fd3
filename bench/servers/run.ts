// Start-up of the two Temporal servers the project installs: median of 5 starts each, until the port opens.
// The SDK gives a server 5 s; the figures print as ratios of that budget, and the class-data archive's gain
// as a ratio of the JVM's start without it.  Run: npx tsx bench/servers/run.ts
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverPaths } from '../../temporal.config';

const SDK_START_BUDGET_MS = 5000;
const RUNS = 5;

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(false)));
  });
}

async function timeStart(cmd: string, args: (port: number) => string[]): Promise<number> {
  const port = 21000 + Math.floor(Math.random() * 20000);
  const started = performance.now();
  const child = spawn(cmd, args(port), { stdio: 'ignore' });
  while (!(await portOpen(port))) await new Promise((r) => setTimeout(r, 5));
  const elapsed = performance.now() - started;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return elapsed;
}

async function median(label: string, start: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await start());
  times.sort((a, b) => a - b);
  const m = times[Math.floor(RUNS / 2)]!;
  console.log(
    `${label}: median ${m.toFixed(0)} ms of ${RUNS} (${times.map((t) => t.toFixed(0)).join(', ')}); ${(m / SDK_START_BUDGET_MS).toFixed(3)} of the SDK's 5 s budget`,
  );
  return m;
}

async function main() {
  const launcher = readFileSync(serverPaths.testServer, 'utf8');
  const withoutArchive = launcher.replace(/ -XX:SharedArchiveFile=\S+/, '').replace(/^exec /m, '');
  const withCds = await median('time-skipping server (launcher, CDS archive)', () =>
    timeStart(serverPaths.testServer, (port) => [String(port)]),
  );
  const plain = await median('time-skipping server (same JVM flags, no archive)', () =>
    timeStart('sh', (port) => ['-c', `${withoutArchive.split('\n')[1]!.replace('"$@"', String(port))}`]),
  );
  console.log(`class-data archive start ratio (with / without): ${(withCds / plain).toFixed(2)}`);
  const dir = mkdtempSync(join(tmpdir(), 'devserver-bench-'));
  await median('dev server (SQLite file, UI on)', () =>
    timeStart(serverPaths.cli, (port) => [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(port + 1),
      '--db-filename',
      join(dir, `t-${port}.sqlite`),
      '--log-level',
      'error',
    ]),
  );
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
