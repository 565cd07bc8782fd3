// Runs one ledger test suite against every store: a fresh SQLite file opened on the caller's thread and
// on a thread of its own (the product's embedded default, store/ledger/thread-ledger.ts), and a
// fresh schema on a real PostgreSQL server started for the test file (a server that cannot start fails
// the suite).
import { after, before, describe } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { openLedger } from '../../store/ledger';
import type { Ledger, LedgerConfig } from '../../store/ledger';
import { startPostgres } from '../support/postgres';
import type { PostgresServer } from '../support/postgres';

export type StoreKind = 'sqlite' | 'sqlite-thread' | 'postgres';

export interface FreshStore {
  ledger: Ledger;
  config: LedgerConfig;
  /** Runs raw SQL on the store's database, bypassing the ledger (to prove the database's own guards). */
  exec(sql: string): Promise<void>;
}

export class StoreHarness {
  private dir = '';
  private server: PostgresServer | undefined;
  private database = '';
  private count = 0;
  private readonly open: Ledger[] = [];

  constructor(readonly kind: StoreKind) {}

  async start(): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), `oc-ledger-${this.kind}-`));
    if (this.kind === 'postgres') {
      this.server = await startPostgres();
      this.database = await this.server.createDatabase('ledger_test');
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.open.splice(0).map((l) => l.close().catch(() => undefined)));
    await this.server?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Configuration of a new, empty store (each call: a new SQLite file or a new PostgreSQL schema). */
  newConfig(): LedgerConfig {
    this.count += 1;
    if (this.kind === 'postgres')
      return { kind: 'postgres', connectionString: this.database, schema: `t${this.count}`, poolSize: 4 };
    return {
      kind: 'sqlite',
      path: join(this.dir, `ledger-${this.count}.db`),
      thread: this.kind === 'sqlite-thread',
    };
  }

  /** Opens a store and closes it when the suite ends. */
  async openTracked(config: LedgerConfig): Promise<Ledger> {
    const ledger = await openLedger(config);
    this.open.push(ledger);
    return ledger;
  }

  async fresh(): Promise<FreshStore> {
    const config = this.newConfig();
    const ledger = await this.openTracked(config);
    return { ledger, config, exec: (sql) => rawExec(config, sql) };
  }
}

async function rawExec(config: LedgerConfig, sql: string): Promise<void> {
  if (config.kind === 'sqlite') {
    const db = new Database(config.path);
    try {
      db.pragma('foreign_keys = ON');
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const client = new Client({
    connectionString: config.connectionString,
    options: `-c search_path=${config.schema}`,
  });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Declares `body` once per store, each in its own `describe` with the store started and stopped around it. */
export function describeEachStore(title: string, body: (store: StoreHarness) => void): void {
  for (const kind of ['sqlite', 'sqlite-thread', 'postgres'] as const) {
    describe(`${title} [${kind}]`, () => {
      const store = new StoreHarness(kind);
      before(() => store.start());
      after(() => store.stop());
      body(store);
    });
  }
}
