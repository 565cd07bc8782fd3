// The payload codec of docs/protocol.md §9: every payload of the contract workflows (task
// description, criteria, delivery content) is sealed with AES-256-GCM before it reaches Temporal,
// so the history holds no content in plain text. Every client and worker uses it, tests included.
//
// One exception, so operators can read contracts in the Temporal UI without the codec (docs/api.md "Payload codec"): the
// payloads the SDK makes of a workflow's static summary, timer/activity summaries (bare JSON strings) and of
// its current details (the `__temporal_workflow_metadata` query's answer) stay readable; the service writes
// them content-free. Content never travels as a bare string: every workflow input, message, query answer and
// activity argument of the service is an object.
//
// The codec key is also what authenticates a message (docs/security.md "Who can reach Temporal"): the
// worker's codec (`refuseUnsealed`) decodes any payload not sealed under its key — plain JSON, another
// key, a forgery — as nothing, so a Signal or Update sent without the key reaches the workflow with no
// `caller` and is refused like any message without one. It decodes as nothing rather than failing:
// a payload that fails to decode fails the whole workflow task, again on every retry, which would
// let anyone who reaches Temporal freeze a contract with one bad Signal.
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A public fingerprint of the key, stored in each payload's metadata to tell keys apart. */
export function codecKeyId(key: Uint8Array): string {
  return `oc-${createHmac('sha256', key).update('opencontract payload codec key id').digest('hex').slice(0, 16)}`;
}

export class PayloadDecryptError extends Error {
  override readonly name = 'PayloadDecryptError';
}

const JSON_PLAIN = 'json/plain';
const QUOTE = 0x22;
const WORKFLOW_METADATA_PREFIX = utf8.encode('{"definition":{');

function isSealed(payload: Payload): boolean {
  const encoding = payload.metadata?.encoding;
  return encoding !== undefined && encoding !== null && fromUtf8.decode(encoding) === ENCRYPTED_ENCODING;
}

function isJsonPlain(payload: Payload): boolean {
  const encoding = payload.metadata?.encoding;
  return encoding !== undefined && encoding !== null && fromUtf8.decode(encoding) === JSON_PLAIN;
}

/** The SDK's answer to `__temporal_workflow_metadata`: message names and the current details, nothing else. */
function isWorkflowMetadata(data: Uint8Array): boolean {
  if (!WORKFLOW_METADATA_PREFIX.every((byte, i) => data[i] === byte)) return false;
  try {
    const value: unknown = JSON.parse(fromUtf8.decode(data));
    return (
      typeof value === 'object' &&
      value !== null &&
      Object.keys(value).sort().join() === 'currentDetails,definition' &&
      typeof (value as { currentDetails: unknown }).currentDetails === 'string'
    );
  } catch {
    return false;
  }
}

/**
 * Operator-facing text, left readable: a bare JSON string (static summary, timer and activity summaries) or
 * the workflow-metadata query's answer (current details and message names).
 */
export function isOperatorText(payload: Payload): boolean {
  const data = payload.data;
  if (!data || !isJsonPlain(payload)) return false;
  return data[0] === QUOTE || isWorkflowMetadata(data);
}

/** What an unauthenticated payload decodes to on the worker: no value at all (`undefined`). */
const NOTHING: Payload = { metadata: { encoding: utf8.encode('binary/null') } };

export interface PayloadCodecOptions {
  /** Decode a payload not sealed under this key (bare operator text aside) as nothing, never as itself. */
  refuseUnsealed?: boolean;
}

export function createPayloadCodec(key: Uint8Array, options: PayloadCodecOptions = {}): PayloadCodec {
  if (key.length !== 32) throw new Error('the payload codec key must be 32 bytes');
  const secret = Uint8Array.from(key);
  const keyId = codecKeyId(secret);
  const keyIdBytes = utf8.encode(keyId);

  function seal(plaintext: Uint8Array): Uint8Array {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', secret, iv);
    // The key id is authenticated too, so a payload cannot be relabelled.
    cipher.setAAD(keyIdBytes);
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return new Uint8Array(Buffer.concat([iv, ciphertext, cipher.getAuthTag()]));
  }

  function open(sealed: Uint8Array): Uint8Array {
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptError('encrypted payload is truncated');
    const decipher = createDecipheriv('aes-256-gcm', secret, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(keyIdBytes);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return new Uint8Array(
        Buffer.concat([
          decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
          decipher.final(),
        ]),
      );
    } catch {
      throw new PayloadDecryptError('encrypted payload failed authentication');
    }
  }

  function decodeOne(payload: Payload): Payload {
    if (!isSealed(payload)) return payload;
    const id = payload.metadata?.[KEY_ID_METADATA];
    const payloadKeyId = id ? fromUtf8.decode(id) : '(none)';
    if (payloadKeyId !== keyId) {
      throw new PayloadDecryptError(`payload sealed with key ${payloadKeyId}, this codec holds ${keyId}`);
    }
    return temporal.api.common.v1.Payload.decode(open(payload.data ?? new Uint8Array()));
  }

  return {
    async encode(payloads: Payload[]): Promise<Payload[]> {
      return payloads.map((payload) =>
        isOperatorText(payload)
          ? payload
          : {
              metadata: { encoding: utf8.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: keyIdBytes },
              data: seal(temporal.api.common.v1.Payload.encode(payload).finish()),
            },
      );
    },
    async decode(payloads: Payload[]): Promise<Payload[]> {
      return payloads.map((payload) => {
        if (!options.refuseUnsealed) return decodeOne(payload);
        if (isOperatorText(payload)) return payload;
        try {
          return isSealed(payload) ? decodeOne(payload) : NOTHING;
        } catch (err) {
          if (err instanceof PayloadDecryptError) return NOTHING;
          throw err;
        }
      });
    },
  };
}
