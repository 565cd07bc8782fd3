// Deployment settings (service/settings.ts) and the payload codec (service/codec.ts).
import assert from 'node:assert/strict';
import { hkdfSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createPayloadCodec, ENCRYPTED_ENCODING } from '../../service/codec';
import { loadSettings, SettingsError } from '../../service/settings';
import { tempDir } from '../auth/support';

const valid = (dir: string) => ({
  OPENCONTRACT_DATA_DIR: dir,
  OPERATOR_TOKEN: 'an-operator-token-long-enough',
  VAULT_MASTER_KEY: '11'.repeat(32),
  PAYLOAD_CODEC_KEY: '22'.repeat(32),
  CURSOR_KEY: '33'.repeat(32),
  TEMPORAL_ADDRESS: '127.0.0.1:7233',
});

const SECRETS = ['OPERATOR_TOKEN', 'VAULT_MASTER_KEY', 'PAYLOAD_CODEC_KEY', 'CURSOR_KEY'] as const;
const hex = (key: Uint8Array) => Buffer.from(key).toString('hex');

test('each invalid setting stops the start with an error naming it, never echoing a secret', () => {
  const dir = tempDir('settings');
  for (const [name, value] of [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['HOST', 'example.com'],
    ['HOST', '300.1.1.1'],
    ['OPENCONTRACT_PARAMS', '{"workerStakeBps": 20000}'],
    ['OPENCONTRACT_PARAMS', 'not json'],
    ['OPERATOR_TOKEN', 'short'],
    ['VAULT_MASTER_KEY', 'abcd'],
    ['PAYLOAD_CODEC_KEY', 'zz'],
    ['CURSOR_KEY', '44'.repeat(31)],
    ['OPENCONTRACT_LEDGER', 'mysql://db'],
    ['OPENCONTRACT_TEMPORAL_RETENTION_DAYS', '0'],
    ['OPENCONTRACT_TEMPORAL_RETENTION_DAYS', '1.5'],
    ['OPENCONTRACT_TEMPORAL_RETENTION_DAYS', 'forever'],
    ['OPENCONTRACT_CODEC_UI_ORIGINS', 'temporal-ui.example.com'],
    ['OPENCONTRACT_CODEC_UI_ORIGINS', 'https://ui.example.com/namespaces'],
    ['OPENCONTRACT_CODEC_UI_ORIGINS', 'https://ui.example.com,ftp://ui.example.com'],
    ['OPENCONTRACT_TRUSTED_PROXIES', 'proxy.internal'],
    ['OPENCONTRACT_TRUSTED_PROXIES', '10.0.0.0/40'],
    ['OPENCONTRACT_WEBHOOK_HOST_RATE', 'fast'],
    ['OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE', 'yes'],
  ] as const) {
    assert.throws(
      () => loadSettings({ ...valid(dir), [name]: value }),
      (err: unknown) =>
        err instanceof SettingsError &&
        err.setting === name &&
        err.message.includes(name) &&
        !((SECRETS as readonly string[]).includes(name) && err.message.includes(value)),
      `${name}=${value}`,
    );
  }
  // A deployment gives every secret: none is derived from another, none generated.
  for (const name of SECRETS) {
    assert.throws(
      () => loadSettings({ ...valid(dir), [name]: '' }),
      (err: unknown) => err instanceof SettingsError && err.setting === name,
      `${name} missing`,
    );
  }
});

test('each secret is its own: the codec and cursor keys are the ones given, not derived from another', () => {
  const s = loadSettings(valid(tempDir('settings')));
  assert.equal(hex(s.payloadCodecKey), '22'.repeat(32));
  assert.equal(hex(s.cursorKey), '33'.repeat(32));
  // Another operator token or vault key changes neither.
  const other = loadSettings({
    ...valid(tempDir('settings')),
    OPERATOR_TOKEN: 'another-operator-token-0000',
    VAULT_MASTER_KEY: '99'.repeat(32),
  });
  assert.deepEqual(other.payloadCodecKey, s.payloadCodecKey);
  assert.deepEqual(other.cursorKey, s.cursorKey);
});

test('defaults, and the params overrides applied', () => {
  const dir = tempDir('settings');
  const s = loadSettings({ ...valid(dir), OPENCONTRACT_PARAMS: '{"baVotingWindow": 12000}' });
  assert.equal(s.port, 3000);
  assert.equal(s.retentionDays, 30);
  assert.equal(loadSettings({ ...valid(dir), OPENCONTRACT_TEMPORAL_RETENTION_DAYS: '90' }).retentionDays, 90);
  assert.equal(s.host, '127.0.0.1');
  assert.equal(loadSettings({ ...valid(dir), HOST: ' 0.0.0.0 ' }).host, '0.0.0.0');
  assert.equal(loadSettings({ ...valid(dir), HOST: '::1' }).host, '::1');
  assert.equal(s.params.baVotingWindow, 12000);
  assert.deepEqual(s.ledger, { kind: 'sqlite', path: join(dir, 'ledger.sqlite') });
  assert.equal(s.payloadCodecKey.length, 32);
  assert.notDeepEqual(Buffer.from(s.payloadCodecKey), Buffer.from(s.vaultMasterKey));
  assert.equal(
    loadSettings({ ...valid(dir), OPENCONTRACT_LEDGER: 'postgres://u@h/db' }).ledger.kind,
    'postgres',
  );
  // Private webhook targets are refused on every profile unless allowed, the embedded default included.
  const embedded = { ...valid(dir), TEMPORAL_ADDRESS: '' };
  assert.equal(loadSettings(embedded).embedded, true);
  assert.equal(loadSettings(embedded).webhookAllowPrivate, false);
  assert.equal(s.webhookAllowPrivate, false);
  assert.equal(
    loadSettings({ ...embedded, OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate,
    true,
  );
  assert.deepEqual(s.webhookHostRate, { burst: 60, perSecond: 10 });
  assert.equal(s.trustedProxies.has('10.0.0.2'), false);
  const proxied = loadSettings({ ...valid(dir), OPENCONTRACT_TRUSTED_PROXIES: '10.0.0.2, fd00::/8' });
  assert.deepEqual(
    ['10.0.0.2', 'fd00::7', '10.0.0.3'].map((a) => proxied.trustedProxies.has(a)),
    [true, true, false],
  );
});

test('codec UI origins: none on a deployment unless listed; the dev server’s UI on the embedded default', () => {
  const dir = tempDir('settings');
  assert.deepEqual(loadSettings(valid(dir)).codecUiOrigins, []);
  assert.deepEqual(
    loadSettings({
      ...valid(dir),
      OPENCONTRACT_CODEC_UI_ORIGINS: 'https://ui.example.com, http://10.0.0.5:8080',
    }).codecUiOrigins,
    ['https://ui.example.com', 'http://10.0.0.5:8080'],
  );
  const { TEMPORAL_ADDRESS: _external, ...embeddedEnv } = valid(dir);
  assert.deepEqual(loadSettings({ ...embeddedEnv, OPENCONTRACT_TEMPORAL_UI_PORT: '18233' }).codecUiOrigins, [
    'http://127.0.0.1:18233',
    'http://localhost:18233',
  ]);
  assert.throws(
    () => loadSettings({ ...embeddedEnv, OPENCONTRACT_TEMPORAL_UI_PORT: 'web' }),
    (err: unknown) => err instanceof SettingsError && err.setting === 'OPENCONTRACT_TEMPORAL_UI_PORT',
  );
});

test('the embedded default generates its secrets once, in a 0600 file', () => {
  const dir = tempDir('settings');
  const first = loadSettings({ OPENCONTRACT_DATA_DIR: dir });
  assert.equal(first.secretsFile, join(dir, 'secrets.json'));
  assert.equal(statSync(first.secretsFile).mode & 0o777, 0o600);
  const second = loadSettings({ OPENCONTRACT_DATA_DIR: dir });
  assert.equal(second.operatorToken, first.operatorToken);
  assert.deepEqual(second.vaultMasterKey, first.vaultMasterKey);
  assert.deepEqual(second.payloadCodecKey, first.payloadCodecKey);
  assert.deepEqual(second.cursorKey, first.cursorKey);
  // Four secrets, four independent random values, each in the file under its own name.
  const keys = [first.vaultMasterKey, first.payloadCodecKey, first.cursorKey].map(hex);
  assert.equal(new Set([...keys, first.operatorToken]).size, 4);
  assert.deepEqual(JSON.parse(readFileSync(first.secretsFile, 'utf8')), {
    operatorToken: first.operatorToken,
    vaultMasterKey: keys[0],
    payloadCodecKey: keys[1],
    cursorKey: keys[2],
  });
  // One given in the environment wins over the file; the others still come from it.
  const given = loadSettings({ OPENCONTRACT_DATA_DIR: dir, CURSOR_KEY: '55'.repeat(32) });
  assert.equal(hex(given.cursorKey), '55'.repeat(32));
  assert.deepEqual(given.payloadCodecKey, first.payloadCodecKey);
  // An external cluster gets no generated secrets.
  assert.throws(
    () => loadSettings({ OPENCONTRACT_DATA_DIR: tempDir('settings'), TEMPORAL_ADDRESS: 'x:7233' }),
    SettingsError,
  );
});

test('a secrets file from before the codec and cursor keys had entries gets them once, its contracts still readable', () => {
  const dir = tempDir('settings');
  const file = join(dir, 'secrets.json');
  const old = { operatorToken: 'an-operator-token-long-enough', vaultMasterKey: '11'.repeat(32) };
  writeFileSync(file, JSON.stringify(old), { mode: 0o600 });
  const s = loadSettings({ OPENCONTRACT_DATA_DIR: dir });
  // The key its payloads were sealed with until then: HKDF-SHA256 of the vault master key.
  const sealedWith = hkdfSync(
    'sha256',
    Buffer.from(old.vaultMasterKey, 'hex'),
    new Uint8Array(0),
    'opencontract payload codec v1',
    32,
  );
  assert.equal(hex(s.payloadCodecKey), Buffer.from(sealedWith).toString('hex'));
  assert.equal(s.operatorToken, old.operatorToken);
  assert.equal(s.cursorKey.length, 32);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  assert.deepEqual(Object.keys(stored).sort(), [
    'cursorKey',
    'operatorToken',
    'payloadCodecKey',
    'vaultMasterKey',
  ]);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const again = loadSettings({ OPENCONTRACT_DATA_DIR: dir });
  assert.deepEqual(again.cursorKey, s.cursorKey);
  assert.deepEqual(again.payloadCodecKey, s.payloadCodecKey);
});

test('payload codec: sealed with AES-256-GCM, no plaintext, opened only with the same key', async () => {
  const codec = createPayloadCodec(new Uint8Array(32).fill(1));
  const payload = {
    metadata: { encoding: new TextEncoder().encode('json/plain') },
    data: new TextEncoder().encode('{"taskDescription":"secret task text"}'),
  };
  const [sealed] = await codec.encode([payload]);
  assert.equal(new TextDecoder().decode(sealed!.metadata!.encoding), ENCRYPTED_ENCODING);
  assert.ok(!Buffer.from(sealed!.data!).toString('latin1').includes('secret task text'));
  const [opened] = await codec.decode([sealed!]);
  assert.equal(new TextDecoder().decode(opened!.data!), '{"taskDescription":"secret task text"}');
  await assert.rejects(createPayloadCodec(new Uint8Array(32).fill(2)).decode([sealed!]), /sealed with key/);
  const tampered = { ...sealed!, data: Uint8Array.from(sealed!.data!, (b, i) => (i === 20 ? b ^ 1 : b)) };
  await assert.rejects(codec.decode([tampered]), /authentication/);
});

test('payload codec: a bare string (summary, current details) stays readable for operators', async () => {
  const codec = createPayloadCodec(new Uint8Array(32).fill(1));
  const summary = {
    metadata: { encoding: new TextEncoder().encode('json/plain') },
    data: new TextEncoder().encode('"FOP contract c-1: status matched"'),
  };
  const [encoded] = await codec.encode([summary]);
  assert.equal(new TextDecoder().decode(encoded!.metadata!.encoding), 'json/plain');
  assert.equal(new TextDecoder().decode(encoded!.data!), '"FOP contract c-1: status matched"');
  const [decoded] = await codec.decode([encoded!]);
  assert.deepEqual(decoded, summary);
});

test('payload codec: the workflow-metadata answer (current details) stays readable, look-alikes do not', async () => {
  const codec = createPayloadCodec(new Uint8Array(32).fill(1));
  const plain = (json: string) => ({
    metadata: { encoding: new TextEncoder().encode('json/plain') },
    data: new TextEncoder().encode(json),
  });
  const metadata = plain(
    '{"definition":{"type":"contractWorkflow","queryDefinitions":[]},"currentDetails":"**matched**"}',
  );
  const [kept] = await codec.encode([metadata]);
  assert.deepEqual(kept, metadata);
  const lookAlike = plain(
    '{"definition":{"type":"x"},"currentDetails":"d","taskDescription":"secret task text"}',
  );
  const [sealed] = await codec.encode([lookAlike]);
  assert.equal(new TextDecoder().decode(sealed!.metadata!.encoding), ENCRYPTED_ENCODING);
});
