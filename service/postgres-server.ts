// Starts a throwaway PostgreSQL server (Debian's binaries) on 127.0.0.1 for tests, benchmarks and the
// cluster profile (service/cluster.ts); its data directory is removed on stop.
// PostgreSQL refuses to run as root, so when we are root the server runs as the `postgres` OS user.
// A caller that cannot start it gets an exception: tests that need it fail, they never skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

const BIN_DIR = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const READY_TIMEOUT_MS = 30_000;

export interface PostgresServer {
  readonly port: number;
  /** Connection string for a database on this server (default `postgres`). */
  connectionString(database?: string): string;
  /** Creates a fresh, empty database and returns its connection string. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

interface OsUser {
  uid: number;
  gid: number;
}

function postgresOsUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root but there is no `postgres` OS user to run the server as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(
  connectionString: string,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}:\n${log()}`);
    const client = new Client({ connectionString });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(
    `postgres did not accept connections within ${READY_TIMEOUT_MS} ms: ${String(lastError)}\n${log()}`,
  );
}

export async function startPostgres(options: { maxConnections?: number } = {}): Promise<PostgresServer> {
  const user = postgresOsUser();
  const dir = mkdtempSync(join(tmpdir(), 'oc-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const dataDir = join(dir, 'data');
  const asServerUser = user ? { uid: user.uid, gid: user.gid } : {};

  const init = spawnSync(
    join(BIN_DIR, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    { ...asServerUser, encoding: 'utf8', cwd: dir },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `initdb failed (${init.error?.message ?? `exit ${init.status}`}):\n${init.stdout}${init.stderr}`,
    );
  }

  const port = await freePort();
  let output = '';
  const child = spawn(
    join(BIN_DIR, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      `max_connections=${options.maxConnections ?? 60}`,
    ],
    { ...asServerUser, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // If the test process dies without stopping us, do not leave a server behind.
  const killOnExit = () => child.kill('SIGQUIT');
  process.once('exit', killOnExit);

  const connectionString = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  try {
    await waitUntilReady(connectionString(), child, () => output);
  } catch (error) {
    child.kill('SIGQUIT');
    process.removeListener('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  let stopped = false;
  return {
    port,
    connectionString,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name))
        throw new Error(`database name must be a plain identifier: ${name}`);
      const admin = new Client({ connectionString: connectionString() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return connectionString(name);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT'); // fast shutdown
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
