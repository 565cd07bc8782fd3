import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteKeyVault, VaultConflictError, VaultDecryptError, parseMasterKey } from '../../api/vault';
import { tempDir } from '../auth/support';

const MATERIALS_KEY = 'materials-key:7f3a9c2e51d04b6f8a1e2d3c4b5a6978';
const DELIVERY_KEY = 'delivery-key:0c1d2e3f405162738495a6b7c8d9eafb';

function newVault(masterKey = new Uint8Array(randomBytes(32))) {
  const dir = tempDir('vault');
  const path = join(dir, 'vault.sqlite');
  return { dir, path, masterKey, vault: new SqliteKeyVault(path, masterKey) };
}

describe('SqliteKeyVault', () => {
  test('round trip per (contract, kind); unknown records are undefined', async () => {
    const { vault } = newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    assert.equal(await vault.get('c-1', 'materials'), MATERIALS_KEY);
    assert.equal(await vault.get('c-1', 'delivery'), DELIVERY_KEY);
    assert.equal(await vault.get('c-2', 'materials'), undefined);
    vault.close();
  });

  test('a repeated put of the same value is a no-op; another value is refused and changes nothing', async () => {
    const { vault } = newVault();
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    await assert.rejects(vault.put('c-1', 'delivery', 'another-key'), VaultConflictError);
    assert.equal(await vault.get('c-1', 'delivery'), DELIVERY_KEY);
    vault.close();
  });

  test('survives a restart with the same master key', async () => {
    const { path, masterKey, vault } = newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    vault.close();
    const reopened = new SqliteKeyVault(path, masterKey);
    assert.equal(await reopened.get('c-1', 'materials'), MATERIALS_KEY);
    reopened.close();
  });

  test('a wrong master key cannot read a record', async () => {
    const { path, vault } = newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    vault.close();
    const intruder = new SqliteKeyVault(path, new Uint8Array(randomBytes(32)));
    await assert.rejects(intruder.get('c-1', 'materials'), (err: Error) => {
      assert.ok(err instanceof VaultDecryptError);
      assert.match(err.message, /sealed under another master key/);
      return true;
    });
    intruder.close();
  });

  test("a record copied onto another contract's row fails authentication", async () => {
    const { path, vault } = newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await vault.put('c-2', 'materials', 'placeholder');
    const db = new Database(path);
    db.prepare(
      `UPDATE vault_keys SET (wrapped_data_key, sealed_value) =
         (SELECT wrapped_data_key, sealed_value FROM vault_keys WHERE contract_id = 'c-1' AND kind = 'materials')
       WHERE contract_id = 'c-2' AND kind = 'materials'`,
    ).run();
    db.close();
    await assert.rejects(vault.get('c-2', 'materials'), /fails authentication/);
    assert.equal(await vault.get('c-1', 'materials'), MATERIALS_KEY);
    vault.close();
  });

  test('nothing on disk holds the plaintext or its base64, and each record has its own data key', async () => {
    const { dir, path, vault } = newVault();
    await vault.put('c-1', 'materials', MATERIALS_KEY);
    await vault.put('c-2', 'materials', MATERIALS_KEY);
    await vault.put('c-1', 'delivery', DELIVERY_KEY);
    const files = readdirSync(dir).map((f) => readFileSync(join(dir, f)));
    assert.ok(files.length >= 2, 'the database and its WAL');
    for (const bytes of files) {
      for (const secret of [MATERIALS_KEY, DELIVERY_KEY]) {
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
    const rows = new Database(path, { readonly: true })
      .prepare("SELECT wrapped_data_key, sealed_value FROM vault_keys WHERE kind = 'materials'")
      .all() as Array<{ wrapped_data_key: Buffer; sealed_value: Buffer }>;
    assert.equal(rows.length, 2);
    assert.notDeepEqual(rows[0]?.wrapped_data_key, rows[1]?.wrapped_data_key);
    assert.notDeepEqual(rows[0]?.sealed_value, rows[1]?.sealed_value);
    vault.close();
  });

  test('bad input is refused naming the field', async () => {
    const { vault } = newVault();
    await assert.rejects(vault.put('', 'materials', 'k'), /contractId must be/);
    await assert.rejects(
      vault.put('c-1', 'secrets' as 'materials', 'k'),
      /kind must be one of materials, delivery/,
    );
    await assert.rejects(vault.put('c-1', 'materials', ''), /key must be a non-empty string/);
    assert.throws(() => new SqliteKeyVault(':memory:', new Uint8Array(16)), /32 bytes/);
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
