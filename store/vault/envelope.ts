// The key vault's envelope encryption (docs/security.md), shared by its storage back-ends (SQLite in
// sqlite.ts, PostgreSQL in postgres.ts). Each record gets a fresh 256-bit data key; the value
// is sealed under it with AES-256-GCM and the data key is sealed under the master key, both with the
// record's identity as additional authenticated data, so a sealed value moved to another row fails
// to open. Nothing is stored in plain text: not the value, not the data key, not a hash of the value.
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_KINDS = ['materials', 'delivery'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

export const FORMAT_VERSION = 1;
const MAX_KEY_LENGTH = 8192;
/** A delivery body is at most 1 MiB (api/app.ts); its normalized content is smaller still. */
const MAX_CONTENT_LENGTH = 2 * 1024 * 1024;
const MAX_CONTRACT_ID_LENGTH = 200;

export class VaultConflictError extends Error {
  override readonly name = 'VaultConflictError';
}
export class VaultDecryptError extends Error {
  override readonly name = 'VaultDecryptError';
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

/** Which record: keys and contents are kept apart (two tables in each back-end). */
export interface VaultRecordId {
  record: 'key' | 'content';
  contractId: string;
  kind: KeyKind;
}

/** One record as stored: everything but the identity. */
export interface SealedRecord {
  formatVersion: number;
  /** Public fingerprint of the master key the data key is wrapped under. */
  masterKeyId: string;
  wrappedDataKey: Buffer;
  sealedValue: Buffer;
}

/** What a back-end stores: sealed records by identity, never changed once written. */
export interface VaultStorage {
  /** Inserts the record unless one with this identity exists; resolves whether it inserted. */
  insert(id: VaultRecordId, sealed: SealedRecord): Promise<boolean>;
  find(id: VaultRecordId): Promise<SealedRecord | undefined>;
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

/**
 * Binds a sealed value to its record; the NUL separators keep ("a", "bc") and ("ab", "c") apart. A
 * content's identity differs from its key's, so a row moved between the tables fails to open. The
 * same in every back-end, so a record copied from one to another still opens.
 */
function recordAad({ record, contractId, kind }: VaultRecordId): Buffer {
  const what = record === 'key' ? kind : `${kind}\0content`;
  return Buffer.from(`opencontract-vault/v${FORMAT_VERSION}\0${contractId}\0${what}`, 'utf8');
}

/** A public fingerprint of the master key, stored per record so a wrong key gets a clear error. */
function masterKeyId(masterKey: Uint8Array): string {
  return createHmac('sha256', masterKey).update('opencontract-vault key id').digest('hex').slice(0, 16);
}

/** Refuses a master key of the wrong length (before a back-end opens anything). */
export function checkMasterKey(masterKey: Uint8Array): void {
  if (masterKey.length !== 32) throw new Error('the vault master key must be 32 bytes');
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

const describeRecord = ({ record, contractId, kind }: VaultRecordId) =>
  `the ${kind} ${record} of contract ${contractId}`;

/** The vault's rules over any storage: validation, sealing, idempotent puts, opening. */
export class EnvelopeKeyVault implements KeyVault {
  private readonly masterKey: Uint8Array;
  private readonly keyId: string;

  constructor(
    private readonly storage: VaultStorage,
    masterKey: Uint8Array,
  ) {
    checkMasterKey(masterKey);
    this.masterKey = Uint8Array.from(masterKey);
    this.keyId = masterKeyId(masterKey);
  }

  async put(contractId: string, kind: KeyKind, key: string): Promise<void> {
    checkRecordId(contractId, kind);
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new Error(`key must be a non-empty string of at most ${MAX_KEY_LENGTH} characters`);
    }
    await this.putSealed({ record: 'key', contractId, kind }, key);
  }

  async get(contractId: string, kind: KeyKind): Promise<string | undefined> {
    checkRecordId(contractId, kind);
    return (await this.openRecord({ record: 'key', contractId, kind }))?.toString('utf8');
  }

  async putContent(contractId: string, kind: KeyKind, content: string): Promise<void> {
    checkRecordId(contractId, kind);
    if (typeof content !== 'string' || content.length > MAX_CONTENT_LENGTH) {
      throw new Error(`content must be a string of at most ${MAX_CONTENT_LENGTH} characters`);
    }
    await this.putSealed({ record: 'content', contractId, kind }, content);
  }

  async getContent(contractId: string, kind: KeyKind): Promise<string | undefined> {
    checkRecordId(contractId, kind);
    return (await this.openRecord({ record: 'content', contractId, kind }))?.toString('utf8');
  }

  private async putSealed(id: VaultRecordId, value: string): Promise<void> {
    const aad = recordAad(id);
    const dataKey = randomBytes(32);
    const given = Buffer.from(value, 'utf8');
    const sealed: SealedRecord = {
      formatVersion: FORMAT_VERSION,
      masterKeyId: this.keyId,
      wrappedDataKey: seal(this.masterKey, dataKey, aad),
      sealedValue: seal(dataKey, given, aad),
    };
    dataKey.fill(0);
    if (await this.storage.insert(id, sealed)) return;

    const existing = await this.openRecord(id);
    if (existing !== undefined && existing.length === given.length && timingSafeEqual(existing, given)) {
      return;
    }
    throw new VaultConflictError(`${describeRecord(id)} is already set to another value`);
  }

  private async openRecord(id: VaultRecordId): Promise<Buffer | undefined> {
    const row = await this.storage.find(id);
    if (!row) return undefined;
    if (row.masterKeyId !== this.keyId) {
      throw new VaultDecryptError(
        `${describeRecord(id)} was sealed under another master key (id ${row.masterKeyId}, ours ${this.keyId})`,
      );
    }
    const aad = recordAad(id);
    try {
      const dataKey = open(this.masterKey, row.wrappedDataKey, aad);
      const value = open(dataKey, row.sealedValue, aad);
      dataKey.fill(0);
      return value;
    } catch {
      throw new VaultDecryptError(
        `${describeRecord(id)} fails authentication: the record was altered or moved`,
      );
    }
  }
}
