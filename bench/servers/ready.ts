// The embedded dev server's start to ready (service/dev-server.ts: the process spawned, the frontend
// answering GetSystemInfo, the namespace's retention set), median of 5: on a new data directory (the
// first `npm start`, the SQLite schema created) and again on the same file (every later start).
// Run: npx tsx bench/servers/ready.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = 5;

async function main(): Promise<void> {
  // Ports of its own before temporal.config is read, so a running service is not disturbed.
  const port = 21000 + Math.floor(Math.random() * 20000);
  process.env.OPENCONTRACT_TEMPORAL_PORT = String(port);
  process.env.OPENCONTRACT_TEMPORAL_UI_PORT = String(port + 1);
  const { startDevServer } = await import('../../service/dev-server');
  const fresh: number[] = [];
  const again: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'devserver-ready-'));
    try {
      for (const times of [fresh, again]) {
        const started = performance.now();
        const server = await startDevServer(dir, 3);
        times.push(performance.now() - started);
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const show = (label: string, xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    console.log(
      `${label}: median ${sorted[Math.floor(RUNS / 2)]!.toFixed(0)} ms of ${RUNS} (${xs.map((x) => x.toFixed(0)).join(', ')})`,
    );
  };
  show('dev server start to ready, new data directory', fresh);
  show('dev server start to ready, existing file', again);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
