// The key vault (SPEC §9): holds the decryption keys of a contract's Supplementary Materials and
// Delivery, and the delivery's normalized content (SPEC §10), envelope-encrypted. Each record gets a fresh 256-bit data key; the value is sealed
// under it with AES-256-GCM and the data key is sealed under the master key, both with the record's
// identity as additional authenticated data, so a sealed value moved to another row fails to open.
// Nothing is stored in plain text: not the value, not the data key, not a hash of the value.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SqliteDatabase } from './auth/sqlite-file';
import { openSqliteFile } from './auth/sqlite-file';

export const KEY_KINDS = ['materials', 'delivery'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

export const MASTER_KEY_SETTING = 'VAULT_MASTER_KEY';
const MAX_KEY_LENGTH = 8192;
/** A delivery body is at most 1 MiB (api/app.ts); its normalized content is smaller still. */
const MAX_CONTENT_LENGTH = 2 * 1024 * 1024;
const MAX_CONTRACT_ID_LENGTH = 200;
const FORMAT_VERSION = 1;

export class VaultConflictError extends Error {
  override readonly name = 'VaultConflictError';
}
export class VaultDecryptError extends Error {
  override readonly name = 'VaultDecryptError';
}

/**
 * Reads the 32-byte master key from its setting: 64 hex digits (optionally `0x`) or base64 /
 * base64url. The error names the setting and never echoes its value.
 */
export function parseMasterKey(setting: string | undefined, settingName = MASTER_KEY_SETTING): Uint8Array {
  const value = setting?.trim() ?? '';
  if (value === '') throw new Error(`${settingName} is not set: give 32 bytes as 64 hex digits or base64`);
  const hex = value.replace(/^0x/i, '');
  const expected = `${settingName} must be 32 bytes given as 64 hex digits or base64`;
  // A 32-byte key in base64 (43-44 characters, or with '=') is all-hex with negligible odds.
  if (/^[0-9a-fA-F]+$/.test(hex)) {
    if (hex.length !== 64) throw new Error(`${expected} (it has ${hex.length} hex digits)`);
    return new Uint8Array(Buffer.from(hex, 'hex'));
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) throw new Error(`${expected} (it is neither hex nor base64)`);
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== 32) throw new Error(`${expected} (it decodes to ${bytes.length} bytes)`);
  return new Uint8Array(bytes);
}

/** AES-256-GCM: iv (12) ‖ ciphertext ‖ tag (16). */
function seal(key: Uint8Array, plaintext: Uint8Array, aad: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]);
}

function open(key: Uint8Array, sealed: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
}

/** The two tables: decryption keys, and contents (the delivery's normalized content). */
type RecordTable = 'vault_keys' | 'vault_contents';

/**
 * Binds a sealed value to its row; the NUL separators keep ("a", "bc") and ("ab", "c") apart. A
 * content's identity differs from its key's, so a row moved between the tables fails to open.
 */
function recordAad(contractId: string, kind: KeyKind, table: RecordTable = 'vault_keys'): Buffer {
  const what = table === 'vault_keys' ? kind : `${kind}\0content`;
  return Buffer.from(`opencontract-vault/v${FORMAT_VERSION}\0${contractId}\0${what}`, 'utf8');
}

/** A public fingerprint of the master key, stored per record so a wrong key gets a clear error. */
function masterKeyId(masterKey: Uint8Array): string {
  return createHmac('sha256', masterKey).update('opencontract-vault key id').digest('hex').slice(0, 16);
}

function checkRecordId(contractId: string, kind: KeyKind): void {
  if (
    typeof contractId !== 'string' ||
    contractId.length === 0 ||
    contractId.length > MAX_CONTRACT_ID_LENGTH
  ) {
    throw new Error(`contractId must be a non-empty string of at most ${MAX_CONTRACT_ID_LENGTH} characters`);
  }
  if (!KEY_KINDS.includes(kind)) throw new Error(`kind must be one of ${KEY_KINDS.join(', ')}`);
}

interface Row {
  master_key_id: string;
  wrapped_data_key: Buffer;
  sealed_value: Buffer;
}

export interface KeyVault {
  /** Stores the key; a repeat with the same value is a no-op, another value is a VaultConflictError. */
  put(contractId: string, kind: KeyKind, key: string): Promise<void>;
  /** The stored key, or undefined when there is none. */
  get(contractId: string, kind: KeyKind): Promise<string | undefined>;
  /** Stores a content (e.g. the delivery's normalized content as JSON); same rules as `put`. */
  putContent(contractId: string, kind: KeyKind, content: string): Promise<void>;
  /** The stored content, or undefined when there is none. */
  getContent(contractId: string, kind: KeyKind): Promise<string | undefined>;
}

export class SqliteKeyVault implements KeyVault {
  private readonly db: SqliteDatabase;
  private readonly masterKey: Uint8Array;
  private readonly keyId: string;

  constructor(path: string, masterKey: Uint8Array) {
    if (masterKey.length !== 32) throw new Error('the vault master key must be 32 bytes');
    this.masterKey = Uint8Array.from(masterKey);
    this.keyId = masterKeyId(masterKey);
    this.db = openSqliteFile(path);
    // Keys and contents are sealed the same way; they live in two tables of the same shape.
    for (const table of ['vault_keys', 'vault_contents'] satisfies RecordTable[]) {
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      contract_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('materials', 'delivery')),
      format_version INTEGER NOT NULL,
      master_key_id TEXT NOT NULL,
      wrapped_data_key BLOB NOT NULL,
      sealed_value BLOB NOT NULL,
      PRIMARY KEY (contract_id, kind)
    ) WITHOUT ROWID`);
    }
  }

  async put(contractId: string, kind: KeyKind, key: string): Promise<void> {
    checkRecordId(contractId, kind);
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new Error(`key must be a non-empty string of at most ${MAX_KEY_LENGTH} characters`);
    }
    this.putSealed('vault_keys', contractId, kind, key, `the ${kind} key`);
  }

  async get(contractId: string, kind: KeyKind): Promise<string | undefined> {
    checkRecordId(contractId, kind);
    return this.openRow('vault_keys', contractId, kind)?.toString('utf8');
  }

  async putContent(contractId: string, kind: KeyKind, content: string): Promise<void> {
    checkRecordId(contractId, kind);
    if (typeof content !== 'string' || content.length > MAX_CONTENT_LENGTH) {
      throw new Error(`content must be a string of at most ${MAX_CONTENT_LENGTH} characters`);
    }
    this.putSealed('vault_contents', contractId, kind, content, `the ${kind} content`);
  }

  async getContent(contractId: string, kind: KeyKind): Promise<string | undefined> {
    checkRecordId(contractId, kind);
    return this.openRow('vault_contents', contractId, kind)?.toString('utf8');
  }

  private putSealed(
    table: RecordTable,
    contractId: string,
    kind: KeyKind,
    value: string,
    what: string,
  ): void {
    const aad = recordAad(contractId, kind, table);
    const dataKey = randomBytes(32);
    const inserted = this.db
      .prepare(
        `INSERT INTO ${table} (contract_id, kind, format_version, master_key_id, wrapped_data_key, sealed_value)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(
        contractId,
        kind,
        FORMAT_VERSION,
        this.keyId,
        seal(this.masterKey, dataKey, aad),
        seal(dataKey, Buffer.from(value, 'utf8'), aad),
      );
    dataKey.fill(0);
    if (inserted.changes === 1) return;

    const existing = this.openRow(table, contractId, kind);
    const given = Buffer.from(value, 'utf8');
    if (existing !== undefined && existing.length === given.length && timingSafeEqual(existing, given)) {
      return;
    }
    throw new VaultConflictError(`${what} of contract ${contractId} is already set to another value`);
  }

  private openRow(table: RecordTable, contractId: string, kind: KeyKind): Buffer | undefined {
    const row = this.db
      .prepare(
        `SELECT master_key_id, wrapped_data_key, sealed_value FROM ${table} WHERE contract_id = ? AND kind = ?`,
      )
      .get(contractId, kind) as Row | undefined;
    if (!row) return undefined;
    const what = `the ${kind} ${table === 'vault_keys' ? 'key' : 'content'} of contract ${contractId}`;
    if (row.master_key_id !== this.keyId) {
      throw new VaultDecryptError(
        `${what} was sealed under another master key (id ${row.master_key_id}, ours ${this.keyId})`,
      );
    }
    const aad = recordAad(contractId, kind, table);
    try {
      const dataKey = open(this.masterKey, row.wrapped_data_key, aad);
      const value = open(dataKey, row.sealed_value, aad);
      dataKey.fill(0);
      return value;
    } catch {
      throw new VaultDecryptError(`${what} fails authentication: the record was altered or moved`);
    }
  }

  close(): void {
    this.db.close();
  }
}
