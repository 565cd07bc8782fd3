import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { PostgresNonceStore, SqliteNonceStore } from '../../store';
import { PostgresIdempotencyStore } from '../../store/idempotency/postgres';
import { SqliteIdempotencyStore } from '../../store/idempotency/sqlite';
import { SqliteKeyVault } from '../../store/vault/sqlite';
import { PostgresKeyVault } from '../../store/vault/postgres';
import { closeApiStores, openApiStoresFor } from '../../store';
import { describeEachApiStore } from './api-stores';
import { ALICE } from './support';

describeEachApiStore('openApiStoresFor', (stores) => {
  test('puts the stores next to the ledger; two API processes share them', async () => {
    const place = stores.place();
    const settings = {
      dataDir: stores.dataDirOf(place),
      ledger: stores.ledgerConfigAt(place),
      vaultMasterKey: new Uint8Array(randomBytes(32)),
    };
    const one = await openApiStoresFor(settings);
    const two = await openApiStoresFor(settings);
    const expected =
      stores.kind === 'postgres'
        ? [PostgresKeyVault, PostgresNonceStore, PostgresIdempotencyStore]
        : [SqliteKeyVault, SqliteNonceStore, SqliteIdempotencyStore];
    assert.deepEqual(
      [one.vault, one.nonces, one.idempotency].map((s) => s.constructor),
      expected,
    );

    const expires = Math.floor(Date.now() / 1000) + 60; // the stores run on the real clock
    assert.equal(await one.nonces.consume(ALICE, 'shared-nonce-0001', expires), true);
    assert.equal(await two.nonces.consume(ALICE, 'shared-nonce-0001', expires), false);
    await one.vault.put('c-1', 'delivery', 'delivery-key-1234');
    assert.equal(await two.vault.get('c-1', 'delivery'), 'delivery-key-1234');
    await one.payouts.record({ id: 'w-1', address: ALICE, amount: '5', destination: 'd', requestedAt: 1 });
    assert.equal((await two.payouts.pending())[0]?.id, 'w-1');
    const scope = { caller: ALICE, method: 'POST', path: '/x', key: 'k' };
    assert.deepEqual(await one.idempotency.reserve(scope, 'h'), { kind: 'reserved' });
    assert.deepEqual(await two.idempotency.reserve(scope, 'h'), { kind: 'in_progress' });

    if (stores.kind === 'postgres') {
      const tables = await stores.query<{ table_name: string }>(
        place,
        'vault',
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'p${place.id}' ORDER BY 1`,
      );
      assert.deepEqual(
        tables.map((t) => t.table_name),
        [
          'api_event_streams',
          'api_idempotency_keys',
          'api_lease_holders',
          'api_payouts',
          'api_rate_buckets',
          'api_signature_nonces',
          'api_vault_contents',
          'api_vault_keys',
        ],
      );
    } else {
      assert.deepEqual(
        readdirSync(settings.dataDir)
          .filter((f) => f.endsWith('.sqlite'))
          .sort(),
        ['idempotency.sqlite', 'nonces.sqlite', 'payouts.sqlite', 'vault.sqlite'],
      );
    }
    await Promise.all([closeApiStores(one), closeApiStores(two)]);
    await assert.rejects(one.vault.get('c-1', 'delivery'), 'closed stores refuse work');
  });
});
