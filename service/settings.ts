// Deployment settings (docs/api.md "Settings"), read once at start. An invalid setting stops the start
// with a SettingsError naming it (never echoing a secret). For the embedded default — SQLite ledger,
// the dev server — missing secrets are generated once and kept in `<dataDir>/secrets.json` (0600).
import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { LedgerConfig } from '../store/ledger';
import { parseOperatorToken } from '../api/auth';
import type { RateLimitSettings } from '../api/http/rate-limit';
import { bucket, parseRateLimits, RateLimitSettingError } from '../api/http/rate-limit-settings';
import type { BucketRule } from '../api/http/rate-limit';
import { DEFAULT_WEBHOOK_HOST_RATE } from '../activities/webhook-activities';
import { parseTrustedProxies, type TrustedProxies } from '../api/http/client-address';
import { dataDirOf, dataFile } from '../store/data-files';
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
  /** AES-256 key of the payload codec (PAYLOAD_CODEC_KEY). */
  payloadCodecKey: Uint8Array;
  /** The key that seals listing cursors (CURSOR_KEY): the same in every API process of a deployment. */
  cursorKey: Uint8Array;
  ledger: LedgerConfig;
  /** True when no external Temporal cluster is configured: the service runs its own dev server. */
  embedded: boolean;
  /** How long the embedded dev server's namespace keeps a closed workflow (docs/records.md). */
  retentionDays: number;
  /** The file holding generated secrets, when the embedded default generated or reused any. */
  secretsFile: string | null;
  /** Token buckets and event-stream caps of the API (docs/security.md "API limits"). */
  rateLimits: RateLimitSettings;
  /** OPENCONTRACT_TRUSTED_PROXIES: the reverse proxies whose forwarded client address is honoured. */
  trustedProxies: TrustedProxies;
  /**
   * OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE: webhooks may target http and loopback or private addresses
   * (local development). Unset: allowed on the embedded default when the API listens on loopback only.
   */
  webhookAllowPrivate: boolean;
  /** OPENCONTRACT_WEBHOOK_HOST_RATE: webhook posts to one target host, across every subscription. */
  webhookHostRate: BucketRule;
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

const CODEC_KEY_INFO = 'opencontract payload codec v1';

/**
 * The payload codec key a secrets file written before the key had its own entry sealed with: HKDF-SHA256 of
 * the vault master key. Only such a file's completion uses it, so the contracts it holds stay readable.
 */
function legacyCodecKey(masterKey: Uint8Array): Uint8Array {
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
  if (setting === '') return { kind: 'sqlite', path: dataFile(dataDir, 'ledger') };
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

/** Each secret's setting: one secret for one job, none derived from another. */
const SECRET_SETTINGS = {
  operatorToken: 'OPERATOR_TOKEN',
  vaultMasterKey: 'VAULT_MASTER_KEY',
  payloadCodecKey: 'PAYLOAD_CODEC_KEY',
  cursorKey: 'CURSOR_KEY',
} as const;

// The codec and cursor keys are optional only in files written before they had entries of their own.
const secretsFileSchema = z
  .object({
    operatorToken: z.string(),
    vaultMasterKey: z.string(),
    payloadCodecKey: z.string().optional(),
    cursorKey: z.string().optional(),
  })
  .strict();
type StoredSecrets = Required<z.infer<typeof secretsFileSchema>>;

const newKey = () => randomBytes(32).toString('hex');

function writeSecrets(file: string, secrets: StoredSecrets, flag: 'wx' | 'w'): void {
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag });
  chmodSync(file, 0o600);
}

/**
 * The embedded default's secrets: read from the file, or generated and written once. A file without the
 * codec or cursor key gets them, once: the codec key its contracts were sealed with until then (derived
 * from the vault master key in force), and a new cursor key.
 */
function embeddedSecrets(
  dataDir: string,
  envMasterKey: string | undefined,
): { file: string; secrets: StoredSecrets } {
  const file = dataFile(dataDir, 'secrets');
  if (existsSync(file)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new SettingsError('OPENCONTRACT_DATA_DIR', `${file} is not valid JSON`);
    }
    const parsed = secretsFileSchema.safeParse(raw);
    if (!parsed.success) throw new SettingsError('OPENCONTRACT_DATA_DIR', `${file} is not a secrets file`);
    const { payloadCodecKey, cursorKey, ...rest } = parsed.data;
    if (payloadCodecKey !== undefined && cursorKey !== undefined)
      return { file, secrets: { ...rest, payloadCodecKey, cursorKey } };
    const masterKey = setting('VAULT_MASTER_KEY', () => parseMasterKey(envMasterKey || rest.vaultMasterKey));
    const secrets = {
      ...rest,
      payloadCodecKey: payloadCodecKey ?? Buffer.from(legacyCodecKey(masterKey)).toString('hex'),
      cursorKey: cursorKey ?? newKey(),
    };
    // Written beside it, then renamed over it: a crash leaves the old file or the new one, never half.
    writeSecrets(`${file}.new`, secrets, 'w');
    renameSync(`${file}.new`, file);
    return { file, secrets };
  }
  const secrets: StoredSecrets = {
    operatorToken: randomBytes(24).toString('base64url'),
    vaultMasterKey: newKey(),
    payloadCodecKey: newKey(),
    cursorKey: newKey(),
  };
  mkdirSync(dataDir, { recursive: true });
  writeSecrets(file, secrets, 'wx');
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
  const dataDir = dataDirOf(env);
  const port = parsePort(env.PORT);
  const host = parseHost(env.HOST);
  const params = setting('OPENCONTRACT_PARAMS', () => parseParamsOverrides(env.OPENCONTRACT_PARAMS));
  const ledger = parseLedger(env.OPENCONTRACT_LEDGER, dataDir);
  const embedded = !usesExternalCluster(env);
  const retentionDays = parseRetentionDays(env.OPENCONTRACT_TEMPORAL_RETENTION_DAYS);
  const rateLimits = rateLimitSettings(env);
  const trustedProxies = setting('OPENCONTRACT_TRUSTED_PROXIES', () =>
    parseTrustedProxies(env.OPENCONTRACT_TRUSTED_PROXIES),
  );
  const webhookAllowPrivate = parseFlag(
    'OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE',
    env.OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE,
    // Refused on every profile unless set: a loopback API is often published through a reverse proxy,
    // and then any agent could make the service post into its own network.
    false,
  );
  const webhookHostRate = setting('OPENCONTRACT_WEBHOOK_HOST_RATE', () =>
    bucket('OPENCONTRACT_WEBHOOK_HOST_RATE', env.OPENCONTRACT_WEBHOOK_HOST_RATE, DEFAULT_WEBHOOK_HOST_RATE),
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
  if (Object.values(SECRET_SETTINGS).some(missing) && embedded && ledger.kind === 'sqlite') {
    const found = embeddedSecrets(dataDir, env.VAULT_MASTER_KEY?.trim());
    secretsFile = found.file;
    stored = found.secrets;
  }
  const secret = <T>(
    key: keyof typeof SECRET_SETTINGS,
    parse: (value: string | undefined, name: string) => T,
  ) => {
    const name = SECRET_SETTINGS[key];
    return setting(name, () => parse(missing(name) ? stored?.[key] : env[name], name));
  };
  const operatorToken = secret('operatorToken', parseOperatorToken);
  const vaultMasterKey = secret('vaultMasterKey', parseMasterKey);
  const payloadCodecKey = secret('payloadCodecKey', parseMasterKey);
  const cursorKey = secret('cursorKey', parseMasterKey);

  return {
    port,
    host,
    dataDir,
    params,
    operatorToken,
    vaultMasterKey,
    payloadCodecKey,
    cursorKey,
    ledger,
    embedded,
    retentionDays,
    secretsFile,
    rateLimits,
    trustedProxies,
    webhookAllowPrivate,
    webhookHostRate,
    feedReminderLeadMs,
    codecUiOrigins,
    trustAnchors: parseTrustAnchors(env.OPENCONTRACT_TRUST_ANCHORS),
  };
}
