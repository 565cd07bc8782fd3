import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  SqliteKeyVault,
  VaultConflictError,
  VaultDecryptError,
  parseMasterKey,
} from '../../store/vault/sqlite';
import { describeEachApiStore } from '../auth/api-stores';
import { tempDir } from '../auth/support';

const MATERIALS_KEY = 'materials-key:7f3a9c2e51d04b6f8a1e2d3c4b5a6978';
const DELIVERY_KEY = 'delivery-key:0c1d2e3f405162738495a6b7c8d9eafb';
const CONTENT = JSON.stringify({ summary: 'normalized delivery content 5e1f0a9b7c' });

const masterKey = () => new Uint8Array(randomBytes(32));

describeEachApiStore('key vault', (stores) => {
  /** A vault on a new place (or on `place`), with a new master key unless one is given. */
  async function newVault(key = masterKey(), place = stores.place()) {
    const opened = await stores.vault(place, key);
    return { place, masterKey: key, vault: opened.store, close: opened.close };
  }

  test('round trip per (contract, kind); unknown records are undefined', async () => {
    const { vault, close } = await newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    await vault.putContent('c-1', 'delivery', CONTENT);
    assert.equal(await vault.get('c-1', 'materials'), MATERIALS_KEY);
    assert.equal(await vault.get('c-1', 'delivery'), DELIVERY_KEY);
    assert.equal(await vault.getContent('c-1', 'delivery'), CONTENT);
    assert.equal(await vault.get('c-2', 'materials'), undefined);
    assert.equal(await vault.getContent('c-1', 'materials'), undefined);
    await close();
  });

  test('a repeated put of the same value is a no-op; another value is refused and changes nothing', async () => {
    const { vault, close } = await newVault();
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    await assert.rejects(vault.put('c-1', 'delivery', 'another-key'), VaultConflictError);
    assert.equal(await vault.get('c-1', 'delivery'), DELIVERY_KEY);
    await vault.putContent('c-1', 'delivery', CONTENT);
    await vault.putContent('c-1', 'delivery', CONTENT);
    await assert.rejects(
      vault.putContent('c-1', 'delivery', '{}'),
      /the delivery content of contract c-1 is already set to another value/,
    );
    assert.equal(await vault.getContent('c-1', 'delivery'), CONTENT);
    await close();
  });

  test('survives a restart with the same master key', async () => {
    const { place, masterKey: key, vault, close } = await newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await close();
    const reopened = await newVault(key, place);
    assert.equal(await reopened.vault.get('c-1', 'materials'), MATERIALS_KEY);
    await reopened.close();
  });

  test('a record put through one instance is read through another; a conflicting put there is refused', async () => {
    const one = await newVault();
    const two = await newVault(one.masterKey, one.place);
    await one.vault.put('c-1', 'materials', MATERIALS_KEY);
    await one.vault.putContent('c-1', 'delivery', CONTENT);
    assert.equal(await two.vault.get('c-1', 'materials'), MATERIALS_KEY);
    assert.equal(await two.vault.getContent('c-1', 'delivery'), CONTENT);
    await two.vault.put('c-1', 'materials', MATERIALS_KEY);
    await assert.rejects(two.vault.put('c-1', 'materials', 'another-key'), VaultConflictError);
    // Both put the same new value at once: both succeed, one record.
    await Promise.all([
      one.vault.put('c-9', 'delivery', DELIVERY_KEY),
      two.vault.put('c-9', 'delivery', DELIVERY_KEY),
    ]);
    assert.equal(await one.vault.get('c-9', 'delivery'), DELIVERY_KEY);
    await Promise.all([one.close(), two.close()]);
  });

  test('a wrong master key cannot read a record', async () => {
    const { place, vault, close } = await newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await close();
    const intruder = await newVault(masterKey(), place);
    await assert.rejects(intruder.vault.get('c-1', 'materials'), (err: Error) => {
      assert.ok(err instanceof VaultDecryptError);
      assert.match(err.message, /sealed under another master key/);
      return true;
    });
    await intruder.close();
  });

  test("a record copied onto another contract's row, or from keys to contents, fails authentication", async () => {
    const { place, vault, close } = await newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await vault.put('c-2', 'materials', 'placeholder');
    await vault.putContent('c-1', 'materials', 'placeholder');
    const keys = stores.vaultTable('key');
    await stores.query(
      place,
      'vault',
      `UPDATE ${keys} SET (wrapped_data_key, sealed_value) =
         (SELECT wrapped_data_key, sealed_value FROM ${keys} WHERE contract_id = 'c-1' AND kind = 'materials')
       WHERE contract_id = 'c-2' AND kind = 'materials'`,
    );
    await stores.query(
      place,
      'vault',
      `UPDATE ${stores.vaultTable('content')} SET (wrapped_data_key, sealed_value) =
         (SELECT wrapped_data_key, sealed_value FROM ${keys} WHERE contract_id = 'c-1' AND kind = 'materials')
       WHERE contract_id = 'c-1' AND kind = 'materials'`,
    );
    await assert.rejects(vault.get('c-2', 'materials'), /fails authentication/);
    await assert.rejects(vault.getContent('c-1', 'materials'), /fails authentication/);
    assert.equal(await vault.get('c-1', 'materials'), MATERIALS_KEY);
    await close();
  });

  test('no stored byte holds the plaintext or its base64, and each record has its own data key', async () => {
    const { place, vault, close } = await newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await vault.put('c-2', 'materials', MATERIALS_KEY);
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    await vault.putContent('c-1', 'delivery', CONTENT);
    // Every column of every row, as the database hands it out: the raw BLOB / BYTEA bytes and the text.
    const stored: Buffer[] = [];
    for (const table of [stores.vaultTable('key'), stores.vaultTable('content')]) {
      for (const row of await stores.query<Record<string, unknown>>(
        place,
        'vault',
        `SELECT * FROM ${table}`,
      )) {
        for (const value of Object.values(row)) {
          stored.push(Buffer.isBuffer(value) ? value : Buffer.from(String(value)));
        }
      }
    }
    assert.equal(stored.length, 4 * 6);
    const all = Buffer.concat(stored);
    for (const secret of [MATERIALS_KEY, DELIVERY_KEY, CONTENT]) {
      for (const form of [
        secret,
        Buffer.from(secret).toString('base64'),
        Buffer.from(secret).toString('hex'),
      ]) {
        assert.equal(all.includes(Buffer.from(form)), false, `found ${form}`);
      }
      assert.equal(all.includes(Buffer.from(secret.slice(-16))), false, 'no fragment either');
    }
    const rows = await stores.query<{ wrapped_data_key: Buffer; sealed_value: Buffer }>(
      place,
      'vault',
      `SELECT wrapped_data_key, sealed_value FROM ${stores.vaultTable('key')} WHERE kind = 'materials'`,
    );
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => Buffer.isBuffer(r.wrapped_data_key) && Buffer.isBuffer(r.sealed_value)));
    assert.notDeepEqual(rows[0]?.wrapped_data_key, rows[1]?.wrapped_data_key);
    assert.notDeepEqual(rows[0]?.sealed_value, rows[1]?.sealed_value);
    await close();
  });

  test('bad input is refused naming the field', async () => {
    const { vault, close } = await newVault();
    await assert.rejects(vault.put('', 'materials', 'k'), /contractId must be/);
    await assert.rejects(
      vault.put('c-1', 'secrets' as 'materials', 'k'),
      /kind must be one of materials, delivery/,
    );
    await assert.rejects(vault.put('c-1', 'materials', ''), /key must be a non-empty string/);
    await assert.rejects(stores.vault(stores.place(), new Uint8Array(16)), /32 bytes/);
    await close();
  });
});

describe('SqliteKeyVault files', () => {
  test('nothing on disk holds the plaintext or its base64, WAL included', async () => {
    const dir = tempDir('vault');
    const vault = new SqliteKeyVault(join(dir, 'vault.sqlite'), masterKey());
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    await vault.putContent('c-1', 'delivery', CONTENT);
    const files = readdirSync(dir).map((f) => readFileSync(join(dir, f)));
    assert.ok(files.length >= 2, 'the database and its WAL');
    for (const bytes of files) {
      for (const secret of [MATERIALS_KEY, DELIVERY_KEY, CONTENT]) {
        for (const form of [
          secret,
          Buffer.from(secret).toString('base64'),
          Buffer.from(secret).toString('hex'),
        ]) {
          assert.equal(bytes.includes(Buffer.from(form)), false, `found ${form}`);
        }
        assert.equal(bytes.includes(Buffer.from(secret.slice(-16))), false, 'no fragment either');
      }
    }
    vault.close();
  });
});

describe('parseMasterKey', () => {
  const key = Buffer.from(randomBytes(32));

  test('accepts hex, 0x-hex, base64 and base64url', () => {
    for (const setting of [
      key.toString('hex'),
      `0x${key.toString('hex').toUpperCase()}`,
      key.toString('base64'),
      key.toString('base64url'),
      ` ${key.toString('base64')}\n`,
    ]) {
      assert.deepEqual(Buffer.from(parseMasterKey(setting)), key, setting);
    }
  });

  test('refuses anything else, naming the setting and never echoing the value', () => {
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /^VAULT_MASTER_KEY is not set/],
      ['', /^VAULT_MASTER_KEY is not set/],
      [Buffer.from(randomBytes(16)).toString('hex'), /it has 32 hex digits/],
      [Buffer.from(randomBytes(31)).toString('base64'), /decodes to 31 bytes/],
      ['not a key!', /neither hex nor base64/],
    ];
    for (const [setting, message] of cases) {
      assert.throws(
        () => parseMasterKey(setting),
        (err: Error) => message.test(err.message) && (!setting || !err.message.includes(setting)),
        String(setting),
      );
    }
    assert.throws(() => parseMasterKey('abc', 'OC_VAULT_KEY'), /^Error: OC_VAULT_KEY must be 32 bytes/);
  });
});
