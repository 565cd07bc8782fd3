// The evidence a delivery carries for its machine-checkable criteria (docs/scoring.md, "Evidence
// Requirements"), and which records count for a check. Parsing checks types only; whether a record
// counts (required fields for its platform, its action type, its time) is decided when scoring, so a
// bad record costs the Worker that record, not the whole delivery.
import { z } from 'zod';
import {
  consistencyActionTypeSchema,
  isoInstantSchema,
  platformSchema,
  qualityActionTypeSchema,
  type MachineCheck,
  type Platform,
} from '../machine-checks';
import type { FieldError } from '../field-errors';

export const MAX_RECORDS_PER_CRITERION = 2000;

const idSchema = z.string().min(1).max(500);

/** One evidence record. Field names are the seed's, in camelCase; every field is optional here. */
export const evidenceRecordSchema = z.strictObject({
  platform: platformSchema.optional(),
  actionType: z.union([consistencyActionTypeSchema, qualityActionTypeSchema]).optional(),
  timestamp: isoInstantSchema.optional(),
  // Platform references (the seed's required fields per platform).
  actionUrl: idSchema.optional(),
  contentHash: idSchema.optional(),
  eventId: idSchema.optional(),
  signature: idSchema.optional(),
  messageId: idSchema.optional(),
  chatId: idSchema.optional(),
  commitHash: idSchema.optional(),
  repoUrl: idSchema.optional(),
  txHash: idSchema.optional(),
  blockNumber: z.int().min(0).optional(),
  requestId: idSchema.optional(),
  // Content facts (consistency content requirements, quality metrics).
  contentLength: z.int().min(0).optional(),
  contentTags: z.array(z.string().max(200)).max(100).optional(),
  contentText: z.string().max(100_000).optional(),
  responseTimeMinutes: z.number().min(0).optional(),
  format: z.string().max(100).optional(),
  satisfactionRating: z.number().min(0).max(5).optional(),
  accuracyVerified: z.boolean().optional(),
  // Time-bound milestones.
  milestoneId: z.string().min(1).max(64).optional(),
  deliverable: z.string().min(1).max(100).optional(),
});
export type EvidenceRecord = z.infer<typeof evidenceRecordSchema>;
type RecordField = keyof EvidenceRecord;

/** The delivery's `evidence`: one entry per machine-checkable criterion, by 0-based criterion index. */
export const deliveryEvidenceSchema = z
  .array(
    z.strictObject({
      criterionIndex: z.int().min(0).max(9),
      records: z.array(evidenceRecordSchema).max(MAX_RECORDS_PER_CRITERION),
    }),
  )
  .max(10)
  .superRefine((entries, ctx) => {
    const seen = new Set<number>();
    entries.forEach((e, i) => {
      if (seen.has(e.criterionIndex)) {
        ctx.addIssue({ code: 'custom', path: [i, 'criterionIndex'], message: 'duplicate criterionIndex' });
      }
      seen.add(e.criterionIndex);
    });
  });
export type DeliveryEvidence = z.infer<typeof deliveryEvidenceSchema>;

/** The seed's EVIDENCE_REQUIREMENTS.required_fields, plus `api` (not in the seed's table). */
export const REQUIRED_FIELDS_BY_PLATFORM: Readonly<Record<Platform, readonly RecordField[]>> = {
  moltbook: ['actionUrl', 'timestamp', 'contentHash'],
  clawstr: ['eventId', 'timestamp', 'signature'],
  telegram: ['messageId', 'timestamp', 'chatId'],
  github: ['commitHash', 'timestamp', 'repoUrl'],
  onchain: ['txHash', 'blockNumber', 'timestamp'],
  api: ['requestId', 'timestamp'],
};

/** What makes two records the same action: the second copy never counts again. */
export const IDENTITY_FIELDS_BY_PLATFORM: Readonly<Record<Platform, readonly RecordField[]>> = {
  moltbook: ['actionUrl'],
  clawstr: ['eventId'],
  telegram: ['chatId', 'messageId'],
  github: ['repoUrl', 'commitHash'],
  onchain: ['txHash'],
  api: ['requestId'],
};

export const TIME_BOUND_REQUIRED_FIELDS: readonly RecordField[] = ['milestoneId', 'timestamp'];

/** A record that counts, with its parsed time. */
export interface CountedRecord {
  recordIndex: number;
  record: EvidenceRecord;
  at: number;
}

export interface RejectedRecord {
  recordIndex: number;
  /** Machine-readable: `missing-field:actionUrl`, `platform-mismatch`, `after-evaluation`, … */
  reasons: string[];
}

export interface ScreenedEvidence {
  /** Sorted by time, then by position in the delivery. */
  counted: CountedRecord[];
  rejected: RejectedRecord[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function missingFields(record: EvidenceRecord, fields: readonly RecordField[]): string[] {
  return fields.filter((f) => record[f] === undefined).map((f) => `missing-field:${f}`);
}

/** The inclusive [from, to] window a record's time must fall in, beyond "not after evaluation". */
function windowOf(check: MachineCheck): { from: number; to: number } | null {
  if (check.type === 'time_bound' || check.startsAt === undefined) return null;
  const from = Date.parse(check.startsAt);
  if (check.durationDays === undefined) return { from, to: Infinity };
  const grace = check.type === 'consistency' ? gracePeriodHours(check) * HOUR_MS : 0;
  return { from, to: from + check.durationDays * DAY_MS + grace };
}

/** Expected hours between two actions of a consistency check. */
export function expectedIntervalHours(check: Extract<MachineCheck, { type: 'consistency' }>): number {
  switch (check.frequency) {
    case 'hourly':
      return 1;
    case 'daily':
      return 24;
    case 'weekly':
      return 168;
    case 'custom':
      return check.intervalHours ?? 24;
  }
}

/** An explicit 0 is honoured (the seed's `|| 24` would turn it into 24); omitted: weekly 48, else 24. */
export function gracePeriodHours(check: Extract<MachineCheck, { type: 'consistency' }>): number {
  return check.gracePeriodHours ?? (check.frequency === 'weekly' ? 48 : 24);
}

function problemsFor(check: MachineCheck, record: EvidenceRecord): string[] {
  if (check.type === 'time_bound') {
    const problems = missingFields(record, TIME_BOUND_REQUIRED_FIELDS);
    if (record.milestoneId === undefined) return problems;
    const milestone = check.milestones.find((m) => m.milestoneId === record.milestoneId);
    if (!milestone) return [...problems, 'unknown-milestone'];
    if (milestone.requiredDeliverable !== undefined && record.deliverable !== milestone.requiredDeliverable) {
      problems.push('deliverable-mismatch');
    }
    return problems;
  }
  const problems = missingFields(record, ['platform', 'actionType']);
  if (record.platform !== undefined && record.platform !== check.platform) problems.push('platform-mismatch');
  if (record.actionType !== undefined && record.actionType !== check.actionType) {
    problems.push('action-type-mismatch');
  }
  return [...problems, ...missingFields(record, REQUIRED_FIELDS_BY_PLATFORM[check.platform])];
}

function identityOf(check: MachineCheck, record: EvidenceRecord): string | null {
  if (check.type === 'time_bound') return null; // several records per milestone: the earliest is used
  return JSON.stringify(IDENTITY_FIELDS_BY_PLATFORM[check.platform].map((f) => record[f]));
}

/**
 * Splits a criterion's records into those that count and those that do not (with reasons). A record
 * counts when it is valid for the check's platform and action type (docs/protocol.md §10): it names them and
 * carries the platform's required fields. Beyond the seed: it must not be dated after the evaluation
 * time, must fall in the check's window when one is set, and must not repeat an earlier record's
 * platform reference.
 */
export function screenRecords(
  check: MachineCheck,
  records: readonly EvidenceRecord[],
  evaluatedAt: number,
): ScreenedEvidence {
  const window = windowOf(check);
  const candidates: CountedRecord[] = [];
  const rejected: RejectedRecord[] = [];
  records.forEach((record, recordIndex) => {
    const reasons = problemsFor(check, record);
    const at = record.timestamp === undefined ? NaN : Date.parse(record.timestamp);
    if (!Number.isNaN(at)) {
      if (at > evaluatedAt) reasons.push('after-evaluation');
      if (window && (at < window.from || at > window.to)) reasons.push('outside-window');
    }
    if (reasons.length > 0) rejected.push({ recordIndex, reasons });
    else candidates.push({ recordIndex, record, at });
  });
  candidates.sort((a, b) => a.at - b.at || a.recordIndex - b.recordIndex);

  const seen = new Set<string>();
  const counted: CountedRecord[] = [];
  for (const c of candidates) {
    const identity = identityOf(check, c.record);
    if (identity !== null && seen.has(identity)) {
      rejected.push({ recordIndex: c.recordIndex, reasons: ['duplicate'] });
      continue;
    }
    if (identity !== null) seen.add(identity);
    counted.push(c);
  }
  rejected.sort((a, b) => a.recordIndex - b.recordIndex);
  return { counted, rejected };
}

/**
 * Checks a delivery's evidence against the contract's criteria: each entry must name a criterion
 * that exists and carries a check. Errors name the field (`evidence.1.criterionIndex`).
 */
export function evidenceCriteriaErrors(
  evidence: DeliveryEvidence,
  checks: readonly (MachineCheck | undefined)[],
  prefix = 'evidence',
): FieldError[] {
  return evidence.flatMap((entry, i): FieldError[] => {
    const field = `${prefix}.${i}.criterionIndex`;
    if (entry.criterionIndex >= checks.length) {
      return [{ field, message: `no criterion ${entry.criterionIndex} (the contract has ${checks.length})` }];
    }
    if (checks[entry.criterionIndex] === undefined) {
      return [{ field, message: `criterion ${entry.criterionIndex} has no machine check` }];
    }
    return [];
  });
}
