// Machine-checkable acceptance criteria (docs/protocol.md §10, docs/scoring.md): the check a criterion may carry.
// Wire names are the seed's parameters in camelCase (`minimum_actions` → `minimumActions`).
// Validated at contract creation; every error names its field (zod issue path).
import { z } from 'zod';

/** ISO-8601 instant with an explicit zone (`Z` or `±hh:mm`): a local time without a zone is refused. */
export const isoInstantSchema = z.iso.datetime({ offset: true });

/** Platforms of the seed's evidence table, plus `api` (the seed's quality platform list names it). */
export const platformSchema = z.enum(['moltbook', 'clawstr', 'telegram', 'github', 'onchain', 'api']);
export type Platform = z.infer<typeof platformSchema>;

export const consistencyActionTypeSchema = z.enum(['post', 'comment', 'commit', 'transaction', 'message']);
export type ConsistencyActionType = z.infer<typeof consistencyActionTypeSchema>;

export const qualityActionTypeSchema = z.enum(['consultation', 'support_response', 'content_creation']);
export type QualityActionType = z.infer<typeof qualityActionTypeSchema>;

/** Which consistency actions exist on which platform (a commit on Moltbook cannot be evidenced). */
export const CONSISTENCY_ACTIONS_BY_PLATFORM: Readonly<Record<Platform, readonly ConsistencyActionType[]>> = {
  moltbook: ['post', 'comment'],
  clawstr: ['post', 'comment', 'message'],
  telegram: ['message', 'post'],
  github: ['commit', 'comment'],
  onchain: ['transaction'],
  api: ['message'],
};

const MAX_HOURS = 24 * 366;
const hoursSchema = z.number().min(0).max(MAX_HOURS);
const nonEmptyTermsSchema = z.array(z.string().min(1).max(200)).min(1).max(50);

const contentRequirementsSchema = z
  .strictObject({
    minLength: z.int().min(1).max(1_000_000).optional(),
    requiredTags: nonEmptyTermsSchema.optional(),
    forbiddenContent: nonEmptyTermsSchema.optional(),
  })
  .refine(
    (r) => r.minLength !== undefined || r.requiredTags !== undefined || r.forbiddenContent !== undefined,
    {
      message: 'give at least one of minLength, requiredTags, forbiddenContent (or omit contentRequirements)',
    },
  );

export const consistencyCheckSchema = z
  .strictObject({
    type: z.literal('consistency'),
    frequency: z.enum(['hourly', 'daily', 'weekly', 'custom']),
    /** Expected hours between actions; required for `custom`, refused otherwise. */
    intervalHours: z.number().gt(0).max(MAX_HOURS).optional(),
    durationDays: z.int().min(1).max(366),
    platform: platformSchema,
    actionType: consistencyActionTypeSchema,
    minimumActions: z.int().min(1).max(10_000),
    /** Default when omitted: weekly 48 h, otherwise 24 h (seed "Default grace periods"). */
    gracePeriodHours: hoursSchema.optional(),
    /** Optional start of the commitment window; see docs/scoring.md (windows). */
    startsAt: isoInstantSchema.optional(),
    contentRequirements: contentRequirementsSchema.optional(),
  })
  .superRefine((c, ctx) => {
    if (c.frequency === 'custom' && c.intervalHours === undefined) {
      ctx.addIssue({ code: 'custom', path: ['intervalHours'], message: 'required when frequency is custom' });
    }
    if (c.frequency !== 'custom' && c.intervalHours !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['intervalHours'],
        message: 'allowed only when frequency is custom',
      });
    }
    if (!CONSISTENCY_ACTIONS_BY_PLATFORM[c.platform].includes(c.actionType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['actionType'],
        message: `${c.actionType} is not an action on ${c.platform} (allowed: ${CONSISTENCY_ACTIONS_BY_PLATFORM[c.platform].join(', ')})`,
      });
    }
  });

const qualityMetricsSchema = z
  .strictObject({
    responseTimeMinutes: z.number().gt(0).max(525_600).optional(),
    minimumLength: z.int().min(1).max(1_000_000).optional(),
    requiredFormat: z.string().min(1).max(100).optional(),
    /** Out of 5. Enables the satisfaction metric (the seed's algorithm uses it only as a switch). */
    satisfactionThreshold: z.number().gt(0).max(5).optional(),
    technicalAccuracy: z.boolean().optional(),
  })
  .refine(
    (m) =>
      m.responseTimeMinutes !== undefined ||
      m.minimumLength !== undefined ||
      m.requiredFormat !== undefined ||
      m.satisfactionThreshold !== undefined ||
      m.technicalAccuracy === true,
    { message: 'enable at least one quality metric' },
  );

export const qualityCheckSchema = z.strictObject({
  type: z.literal('quality'),
  platform: platformSchema,
  actionType: qualityActionTypeSchema,
  qualityMetrics: qualityMetricsSchema,
  minimumSamples: z.int().min(1).max(10_000),
  durationDays: z.int().min(1).max(366).optional(),
  startsAt: isoInstantSchema.optional(),
});

const milestoneSchema = z.strictObject({
  milestoneId: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, "_", "." or "-", 1 to 64 characters'),
  description: z.string().min(1).max(500).optional(),
  deadline: isoInstantSchema,
  /** Default 0 h (seed "Default grace periods": time-bound milestones). */
  gracePeriodHours: hoursSchema.optional(),
  /** When set, a delivery record must name this deliverable to count. */
  requiredDeliverable: z.string().min(1).max(100).optional(),
});

export const timeBoundCheckSchema = z
  .strictObject({
    type: z.literal('time_bound'),
    milestones: z.array(milestoneSchema).min(1).max(50),
    /** Default true; false removes the early-delivery bonus. */
    allowEarlyCompletion: z.boolean().optional(),
    /** Score points lost per hour late after grace; default 1. */
    penaltyPerLateHour: z.number().min(0).max(100).optional(),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.milestones.forEach((m, i) => {
      if (seen.has(m.milestoneId)) {
        ctx.addIssue({
          code: 'custom',
          path: ['milestones', i, 'milestoneId'],
          message: 'duplicate milestoneId',
        });
      }
      seen.add(m.milestoneId);
    });
  });

export const machineCheckSchema = z.discriminatedUnion('type', [
  consistencyCheckSchema,
  qualityCheckSchema,
  timeBoundCheckSchema,
]);

export type ConsistencyCheck = z.infer<typeof consistencyCheckSchema>;
export type QualityCheck = z.infer<typeof qualityCheckSchema>;
export type TimeBoundCheck = z.infer<typeof timeBoundCheckSchema>;
export type Milestone = TimeBoundCheck['milestones'][number];
export type MachineCheck = z.infer<typeof machineCheckSchema>;
export type MachineCheckType = MachineCheck['type'];
