// Delivery ingest (docs/scoring.md §5): parse the body, validate the
// envelope's fields and types, normalize the content. Errors name the field; the API answers them as
// 400 `{ error: { code, message, details } }`.
import { z } from 'zod';
import { deliveryEvidenceSchema, type DeliveryEvidence } from '../../workflows/rules/scoring/evidence';
import {
  fieldErrorsFromZod,
  invalidFieldsMessage,
  type FieldError,
} from '../../workflows/rules/field-errors';
import { SHA256_RE } from '../../workflows/rules/sha256';
import { CONFIDENCE_RULE, isConfidence } from '../../workflows/rules/confidence';
import { locateConfidence } from './confidence';

export type JsonObject = Record<string, unknown>;

const objectSchema = z.record(z.string(), z.unknown(), { error: 'must be an object' });
/** Any JSON number: `1e999` parses to Infinity and is accepted here; extraction then ignores it. */
const jsonNumberSchema = z.custom<number>((v) => typeof v === 'number', { message: 'must be a number' });

export const deliveryBodySchema = z.strictObject({
  uri: z.string({ error: 'must be a string' }).min(1).max(2048),
  sha256: z
    .string({ error: 'must be a string' })
    .regex(SHA256_RE, 'must be 64 hexadecimal characters')
    .transform((s) => s.toLowerCase()),
  /** The delivery's decryption key (docs/protocol.md §9). */
  key: z.string({ error: 'must be a string' }).min(1).max(4096),
  content: objectSchema.optional(),
  artifact: objectSchema.optional(),
  artifacts: objectSchema.optional(),
  artifactRef: z.string({ error: 'must be a string' }).optional(),
  summary: z.string({ error: 'must be a string' }).optional(),
  confidence: jsonNumberSchema.optional(),
  /** Informational only: never moves money. */
  requestedPayout: z.number({ error: 'must be a finite number' }).optional(),
  evidence: deliveryEvidenceSchema.optional(),
});

export interface NormalizedDelivery {
  ref: { uri: string; sha256: string };
  key: string;
  /** `content` as given, or built from artifact / artifacts / artifactRef / summary / confidence. */
  content: JsonObject;
  /** From the content (extractConfidence); absent when none is a finite number. */
  confidence?: number;
  evidence?: DeliveryEvidence;
  requestedPayout?: number;
}

export type DeliveryIngestErrorCode = 'malformed_json' | 'invalid_field';

export interface DeliveryIngestError {
  code: DeliveryIngestErrorCode;
  message: string;
  details: FieldError[];
}

export type DeliveryIngestResult =
  { ok: true; delivery: NormalizedDelivery } | { ok: false; error: DeliveryIngestError };

type DeliveryBody = z.infer<typeof deliveryBodySchema>;

/** When content is omitted, the API constructs it from the other fields. */
export function buildContent(
  body: Pick<DeliveryBody, 'artifact' | 'artifacts' | 'artifactRef' | 'summary' | 'confidence'>,
): JsonObject {
  const content: JsonObject = {};
  if (body.artifact !== undefined) content.artifact = body.artifact;
  if (body.artifacts !== undefined) content.artifacts = body.artifacts;
  if (body.artifactRef !== undefined) content.artifactRef = body.artifactRef;
  if (body.summary !== undefined) content.summary = body.summary;
  if (body.confidence !== undefined) content.confidence = body.confidence;
  return content;
}

/** Validates and normalizes an already-parsed body. */
export function normalizeDeliveryBody(body: unknown): DeliveryIngestResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return invalid([{ field: '', message: 'the body must be a JSON object' }]);
  }
  const parsed = deliveryBodySchema.safeParse(body);
  if (!parsed.success) return invalid(fieldErrorsFromZod(parsed.error));
  const b = parsed.data;
  const content = b.content ?? buildContent(b);
  const located = locateConfidence(content);
  // The workflow refuses a confidence outside [0, 1]: refused here too, named as the body gave it.
  if (located !== undefined && !isConfidence(located.value)) {
    const field = b.content === undefined ? located.field : `content.${located.field}`;
    return invalid([{ field, message: CONFIDENCE_RULE }]);
  }
  const confidence = located?.value;
  return {
    ok: true,
    delivery: {
      ref: { uri: b.uri, sha256: b.sha256 },
      key: b.key,
      content,
      ...(confidence === undefined ? {} : { confidence }),
      ...(b.evidence === undefined ? {} : { evidence: b.evidence }),
      ...(b.requestedPayout === undefined ? {} : { requestedPayout: b.requestedPayout }),
    },
  };
}

/** The whole pipeline from the raw request text: malformed JSON first, then the fields. */
export function parseDeliveryBody(rawText: string): DeliveryIngestResult {
  let body: unknown;
  try {
    body = JSON.parse(rawText);
  } catch {
    return {
      ok: false,
      error: { code: 'malformed_json', message: 'the body is not valid JSON', details: [] },
    };
  }
  return normalizeDeliveryBody(body);
}

function invalid(details: FieldError[]): DeliveryIngestResult {
  return { ok: false, error: { code: 'invalid_field', message: invalidFieldsMessage(details), details } };
}
