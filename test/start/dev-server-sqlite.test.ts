// The embedded dev server keeps its SQLite file in write-ahead-log mode with every commit synced
// (service/dev-server.ts DEV_SERVER_SQLITE_PRAGMAS; why: docs/performance.md, "The dev server"), and a
// later start on the same file keeps it so.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEV_SERVER_SQLITE_PRAGMAS, sqliteJournalMode, startDevServer } from '../../service/dev-server';
import { freePort } from '../support/postgres';

test(
  'the dev server runs its file in WAL mode, synchronous=FULL, across restarts',
  { timeout: 120_000 },
  async () => {
    assert.deepEqual(DEV_SERVER_SQLITE_PRAGMAS, ['journal_mode=wal', 'synchronous=full']);
    const dir = mkdtempSync(join(tmpdir(), 'oc-devserver-sqlite-'));
    try {
      for (const start of ['new file', 'existing file']) {
        const server = await startDevServer(dir, 3, { port: await freePort(), uiPort: await freePort() });
        try {
          assert.equal(sqliteJournalMode(server.dbFile), 'wal', start);
          assert.ok(existsSync(`${server.dbFile}-wal`), `${start}: the write-ahead log is beside the file`);
        } finally {
          await server.stop();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
