// Runs one suite of the API's own stores (nonces, idempotency records, key vault) against both
// back-ends: SQLite files in a fresh directory, and a fresh schema on a real PostgreSQL server
// started for the test file (a server that cannot start fails the suite). Opening a second store on
// the same place stands for a second API process: on PostgreSQL each store gets its own pool.
import { after, before, describe } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { NonceStore, NonceStoreOptions, PostgresPool } from '../../store';
import { PostgresNonceStore, SqliteNonceStore, openPostgresPool } from '../../store';
import type { IdempotencyStore, IdempotencyStoreOptions } from '../../store/idempotency';
import { SqliteIdempotencyStore } from '../../store/idempotency/sqlite';
import { PostgresIdempotencyStore } from '../../store/idempotency/postgres';
import type { KeyVault } from '../../store/vault/sqlite';
import { SqliteKeyVault } from '../../store/vault/sqlite';
import { PostgresKeyVault } from '../../store/vault/postgres';
import type { LeasedRows } from '../../store/lease';
import { startPostgres } from '../support/postgres';
import type { PostgresServer } from '../support/postgres';

export type ApiStoreKind = 'sqlite' | 'postgres';

/** Where a set of stores keeps its data: a directory of SQLite files, or a PostgreSQL schema. */
export interface StorePlace {
  readonly id: number;
}

/** A store under test, with the maintenance calls each back-end has (async on both for the tests). */
export interface Opened<S> {
  store: S;
  prune(): Promise<number>;
  close(): Promise<void>;
}

export interface OpenedNonces extends Opened<NonceStore> {
  size(): Promise<number>;
}

export class ApiStoreHarness {
  private dir = '';
  private server: PostgresServer | undefined;
  private database = '';
  private places = 0;
  private readonly pools = new Set<PostgresPool>();
  private readonly sqlite = new Set<{ close(): void }>();

  constructor(readonly kind: ApiStoreKind) {}

  async start(): Promise<void> {
    this.dir = mkdtempSync(join(tmpdir(), `oc-api-stores-${this.kind}-`));
    if (this.kind === 'postgres') {
      this.server = await startPostgres();
      this.database = await this.server.createDatabase('api_test');
    }
  }

  async stop(): Promise<void> {
    for (const db of this.sqlite) db.close();
    await Promise.all([...this.pools].map((pool) => pool.end().catch(() => undefined)));
    await this.server?.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A new, empty place. */
  place(): StorePlace {
    this.places += 1;
    return { id: this.places };
  }

  /** What `openApiStoresFor` gets for this place: the ledger is where the API's stores go. */
  ledgerConfigAt(place: StorePlace) {
    return this.kind === 'sqlite'
      ? ({ kind: 'sqlite', path: join(this.file(place, 'ledger')) } as const)
      : ({ kind: 'postgres', connectionString: this.database, schema: this.schema(place) } as const);
  }

  dataDirOf(place: StorePlace): string {
    return join(this.dir, `place-${place.id}`);
  }

  private file(place: StorePlace, name: string): string {
    return join(this.dataDirOf(place), `${name}.sqlite`);
  }

  private schema(place: StorePlace): string {
    return `p${place.id}`;
  }

  /** A pool of its own, like a separate process (PostgreSQL only); ended by close() or when the suite ends. */
  async pool(place: StorePlace): Promise<PostgresPool> {
    const pool = await openPostgresPool({
      connectionString: this.database,
      schema: this.schema(place),
      poolSize: 3,
    });
    this.pools.add(pool);
    return pool;
  }

  private endPool(pool: PostgresPool): () => Promise<void> {
    return async () => {
      this.pools.delete(pool);
      await pool.end();
    };
  }

  private closeSqlite(db: { close(): void }): () => Promise<void> {
    this.sqlite.add(db);
    return async () => {
      this.sqlite.delete(db);
      db.close();
    };
  }

  async nonces(place: StorePlace, options: NonceStoreOptions = {}): Promise<OpenedNonces> {
    if (this.kind === 'sqlite') {
      const store = new SqliteNonceStore(this.file(place, 'nonces'), options);
      return {
        store,
        prune: async () => store.prune(),
        size: async () => store.size(),
        close: this.closeSqlite(store),
      };
    }
    const pool = await this.pool(place);
    const store = await PostgresNonceStore.open(pool, options);
    return { store, prune: () => store.prune(), size: () => store.size(), close: this.endPool(pool) };
  }

  async idempotency(
    place: StorePlace,
    options: IdempotencyStoreOptions = {},
  ): Promise<Opened<IdempotencyStore & { leases: LeasedRows }>> {
    if (this.kind === 'sqlite') {
      const store = new SqliteIdempotencyStore(this.file(place, 'idempotency'), options);
      return { store, prune: async () => store.prune(), close: this.closeSqlite(store) };
    }
    const pool = await this.pool(place);
    const store = await PostgresIdempotencyStore.open(pool, options);
    return { store, prune: () => store.prune(), close: this.endPool(pool) };
  }

  async vault(place: StorePlace, masterKey: Uint8Array): Promise<Omit<Opened<KeyVault>, 'prune'>> {
    if (this.kind === 'sqlite') {
      const store = new SqliteKeyVault(this.file(place, 'vault'), masterKey);
      return { store, close: this.closeSqlite(store) };
    }
    const pool = await this.pool(place);
    const store = await PostgresKeyVault.open(pool, masterKey);
    return { store, close: this.endPool(pool) };
  }

  /** The vault's table of keys (`content`: of contents) in this back-end. */
  vaultTable(record: 'key' | 'content' = 'key'): string {
    const table = record === 'key' ? 'vault_keys' : 'vault_contents';
    return this.kind === 'sqlite' ? table : `api_${table}`;
  }

  /** Rows of a query run straight on the place's database, bypassing the stores. */
  async query<R>(place: StorePlace, store: 'vault' | 'nonces' | 'idempotency', sql: string): Promise<R[]> {
    if (this.kind === 'sqlite') {
      const db = new Database(this.file(place, store));
      try {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all() as R[];
        statement.run();
        return [];
      } finally {
        db.close();
      }
    }
    const pool = await this.pool(place);
    try {
      return (await pool.query(sql)).rows as R[];
    } finally {
      await this.endPool(pool)();
    }
  }
}

/** Declares `body` once per back-end, each in its own `describe` with the back-end started and stopped around it. */
export function describeEachApiStore(title: string, body: (stores: ApiStoreHarness) => void): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    describe(`${title} [${kind}]`, () => {
      const stores = new ApiStoreHarness(kind);
      before(() => stores.start());
      after(() => stores.stop());
      body(stores);
    });
  }
}
