// Deployment settings (docs/api.md "Settings"), read once at start. An invalid setting stops the start
// with a SettingsError naming it (never echoing a secret). For the embedded default — SQLite ledger,
// the dev server — missing secrets are generated once and kept in `<dataDir>/secrets.json` (0600).
import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import type { LedgerConfig } from '../activities/ledger';
import { parseOperatorToken } from '../api/auth';
import type { RateLimitSettings } from '../api/rate-limit';
import { parseRateLimits, RateLimitSettingError } from '../api/rate-limit-settings';
import { parseMasterKey } from '../store/vault/sqlite';
import { embeddedUiPort, usesExternalCluster } from '../temporal.config';
import { InvalidParamsError, parseParamsOverrides, type ProtocolParams } from '../workflows/rules/params';

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message.startsWith(setting) ? message : `${setting}: ${message}`);
  }
}

export interface Settings {
  port: number;
  /** The API's listen address (HOST): an IPv4 or IPv6 literal, or `localhost`. */
  host: string;
  dataDir: string;
  params: ProtocolParams;
  operatorToken: string;
  vaultMasterKey: Uint8Array;
  /** AES-256 key of the payload codec (PAYLOAD_CODEC_KEY, or derived from VAULT_MASTER_KEY). */
  payloadCodecKey: Uint8Array;
  ledger: LedgerConfig;
  /** True when no external Temporal cluster is configured: the service runs its own dev server. */
  embedded: boolean;
  /** How long the embedded dev server's namespace keeps a closed workflow (docs/records.md). */
  retentionDays: number;
  /** The file holding generated secrets, when the embedded default generated or reused any. */
  secretsFile: string | null;
  /** Token buckets and event-stream caps of the API (docs/security.md "API limits"). */
  rateLimits: RateLimitSettings;
  /**
   * OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE: webhooks may target http and loopback or private addresses
   * (local development). Unset: allowed on the embedded default when the API listens on loopback only.
   */
  webhookAllowPrivate: boolean;
  /** OPENCONTRACT_FEED_REMINDER_MS: how long before an agent's action deadline its feed reminds it (default 1 h). */
  feedReminderLeadMs: number;
  /**
   * Origins of the Temporal UIs whose browsers may call the codec server (OPENCONTRACT_CODEC_UI_ORIGINS);
   * on the embedded default, its dev server's UI.
   */
  codecUiOrigins: string[];
  /**
   * OPENCONTRACT_TRUST_ANCHORS: comma-separated agent addresses an unsigned reputation read without a
   * viewer weighs trust from (docs/reputation.md §4); none: such a read has no score.
   */
  trustAnchors: string[];
}

const PROJECT_ROOT = join(__dirname, '..');
export const CODEC_KEY_INFO = 'opencontract payload codec v1';

/** HKDF-SHA256 of the vault master key: one secret to configure, two independent keys. */
export function deriveCodecKey(masterKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', masterKey, new Uint8Array(0), CODEC_KEY_INFO, 32));
}

const portSchema = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

export const DEFAULT_RETENTION_DAYS = 30;

const retentionSchema = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number of days')
  .min(1, 'must be between 1 and 3650')
  .max(3650, 'must be between 1 and 3650');

function parseRetentionDays(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_RETENTION_DAYS;
  const parsed = retentionSchema.safeParse(value.trim());
  if (!parsed.success) {
    const name = 'OPENCONTRACT_TEMPORAL_RETENTION_DAYS';
    throw new SettingsError(name, `${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}

function parseFlag(name: string, value: string | undefined, fallback: boolean): boolean {
  const flag = value?.trim() ?? '';
  if (flag === '') return fallback;
  if (flag === '1' || flag === 'true') return true;
  if (flag === '0' || flag === 'false') return false;
  throw new SettingsError(name, `${name} must be 1 or 0`);
}

function parseTrustAnchors(value: string | undefined): string[] {
  const name = 'OPENCONTRACT_TRUST_ANCHORS';
  const items = (value ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  for (const a of items) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new SettingsError(name, `${name}: ${a} is not an address`);
  }
  return [...new Set(items.map((a) => a.toLowerCase()))];
}

function parseDurationMs(name: string, value: string | undefined, fallback: number): number {
  const text = value?.trim() ?? '';
  if (text === '') return fallback;
  if (!/^\d{1,12}$/.test(text))
    throw new SettingsError(name, `${name} must be a whole number of milliseconds`);
  return Number(text);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

function parsePortSetting(name: string, value: string): number {
  const parsed = portSchema.safeParse(value.trim());
  if (!parsed.success)
    throw new SettingsError(name, `${name} ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
  return parsed.data;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  return parsePortSetting('PORT', value);
}

/**
 * HOST: the address the API listens on. Only IP literals (and `localhost`): a hostname resolving to
 * several addresses would bind one of them silently. `0.0.0.0` or `::` listen on every interface.
 */
function parseHost(value: string | undefined): string {
  const host = value?.trim() ?? '';
  if (host === '') return '127.0.0.1';
  if (host === 'localhost' || isIP(host) !== 0) return host;
  throw new SettingsError('HOST', 'HOST must be an IPv4 or IPv6 address (e.g. 127.0.0.1, 0.0.0.0, ::)');
}

function parseLedger(value: string | undefined, dataDir: string): LedgerConfig {
  const setting = value?.trim() ?? '';
  if (setting === '') return { kind: 'sqlite', path: join(dataDir, 'ledger.sqlite') };
  if (/^postgres(ql)?:\/\//.test(setting)) {
    try {
      new URL(setting);
    } catch {
      throw new SettingsError('OPENCONTRACT_LEDGER', 'OPENCONTRACT_LEDGER is not a valid postgres:// URL');
    }
    return { kind: 'postgres', connectionString: setting };
  }
  if (setting.startsWith('sqlite:') && setting.length > 'sqlite:'.length) {
    const path = setting.slice('sqlite:'.length);
    return { kind: 'sqlite', path: isAbsolute(path) ? path : resolve(path) };
  }
  throw new SettingsError(
    'OPENCONTRACT_LEDGER',
    'OPENCONTRACT_LEDGER must be sqlite:<path> or a postgres:// URL',
  );
}

/** OPENCONTRACT_CODEC_UI_ORIGINS: comma-separated origins (`scheme://host[:port]`, nothing after). */
function parseCodecUiOrigins(value: string | undefined, env: NodeJS.ProcessEnv, embedded: boolean): string[] {
  const name = 'OPENCONTRACT_CODEC_UI_ORIGINS';
  const listed = (value ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (listed.length === 0) {
    if (!embedded) return [];
    const uiPort = parsePortSetting('OPENCONTRACT_TEMPORAL_UI_PORT', String(embeddedUiPort(env)));
    return [`http://127.0.0.1:${uiPort}`, `http://localhost:${uiPort}`];
  }
  return listed.map((origin) => {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin) {
      throw new SettingsError(
        name,
        `${name}: "${origin}" is not an origin like https://temporal-ui.example.com`,
      );
    }
    return origin;
  });
}

const secretsFileSchema = z.object({ operatorToken: z.string(), vaultMasterKey: z.string() }).strict();
type StoredSecrets = z.infer<typeof secretsFileSchema>;

/** The embedded default's secrets: read from the file, or generated and written once. */
function embeddedSecrets(dataDir: string): { file: string; secrets: StoredSecrets } {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new SettingsError('OPENCONTRACT_DATA_DIR', `${file} is not valid JSON`);
    }
    const parsed = secretsFileSchema.safeParse(raw);
    if (!parsed.success) throw new SettingsError('OPENCONTRACT_DATA_DIR', `${file} is not a secrets file`);
    return { file, secrets: parsed.data };
  }
  const secrets: StoredSecrets = {
    operatorToken: randomBytes(24).toString('base64url'),
    vaultMasterKey: randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { file, secrets };
}

function setting<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof SettingsError) throw err;
    if (err instanceof InvalidParamsError) throw new SettingsError(name, `${name}: ${err.message}`);
    throw new SettingsError(name, (err as Error).message);
  }
}

function rateLimitSettings(env: NodeJS.ProcessEnv): RateLimitSettings {
  try {
    return parseRateLimits(env);
  } catch (err) {
    if (err instanceof RateLimitSettingError) throw new SettingsError(err.setting, err.message);
    throw err;
  }
}

/**
 * Reads every setting from `env`. Missing secrets are an error, except for the embedded default
 * (SQLite ledger and no external Temporal cluster), where they come from `<dataDir>/secrets.json`.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const dataDir = resolve(env.OPENCONTRACT_DATA_DIR?.trim() || join(PROJECT_ROOT, '.data'));
  const port = parsePort(env.PORT);
  const host = parseHost(env.HOST);
  const params = setting('OPENCONTRACT_PARAMS', () => parseParamsOverrides(env.OPENCONTRACT_PARAMS));
  const ledger = parseLedger(env.OPENCONTRACT_LEDGER, dataDir);
  const embedded = !usesExternalCluster(env);
  const retentionDays = parseRetentionDays(env.OPENCONTRACT_TEMPORAL_RETENTION_DAYS);
  const rateLimits = rateLimitSettings(env);
  const webhookAllowPrivate = parseFlag(
    'OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE',
    env.OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE,
    embedded && LOOPBACK_HOSTS.has(host),
  );
  const feedReminderLeadMs = parseDurationMs(
    'OPENCONTRACT_FEED_REMINDER_MS',
    env.OPENCONTRACT_FEED_REMINDER_MS,
    3_600_000,
  );
  const codecUiOrigins = parseCodecUiOrigins(env.OPENCONTRACT_CODEC_UI_ORIGINS, env, embedded);

  const missing = (name: string) => (env[name]?.trim() ?? '') === '';
  let secretsFile: string | null = null;
  let stored: StoredSecrets | undefined;
  if ((missing('OPERATOR_TOKEN') || missing('VAULT_MASTER_KEY')) && embedded && ledger.kind === 'sqlite') {
    const found = embeddedSecrets(dataDir);
    secretsFile = found.file;
    stored = found.secrets;
  }
  const operatorToken = setting('OPERATOR_TOKEN', () =>
    parseOperatorToken(missing('OPERATOR_TOKEN') ? stored?.operatorToken : env.OPERATOR_TOKEN),
  );
  const vaultMasterKey = setting('VAULT_MASTER_KEY', () =>
    parseMasterKey(missing('VAULT_MASTER_KEY') ? stored?.vaultMasterKey : env.VAULT_MASTER_KEY),
  );
  const payloadCodecKey = missing('PAYLOAD_CODEC_KEY')
    ? deriveCodecKey(vaultMasterKey)
    : setting('PAYLOAD_CODEC_KEY', () => parseMasterKey(env.PAYLOAD_CODEC_KEY, 'PAYLOAD_CODEC_KEY'));

  return {
    port,
    host,
    dataDir,
    params,
    operatorToken,
    vaultMasterKey,
    payloadCodecKey,
    ledger,
    embedded,
    retentionDays,
    secretsFile,
    rateLimits,
    webhookAllowPrivate,
    feedReminderLeadMs,
    codecUiOrigins,
    trustAnchors: parseTrustAnchors(env.OPENCONTRACT_TRUST_ANCHORS),
  };
}
