// The `POST /contracts` body (docs/api.md "Routes"): its schema, with the limits every field is held to.
// The creation rules that look across fields are in ./contract-terms.
import { z } from 'zod';
import { addressSchema } from './address';
import { fieldErrors, type FieldError } from './field-errors';
import { AWARD_METHODS, CONTRACT_TYPES, VERIFICATION_MODES } from './contract-kinds';
import { machineCheckSchema } from './machine-checks';
import { positiveAmountSchema } from './money';
import { SHA256_RE } from './sha256';

export const MIN_CRITERIA = 1;
export const MAX_CRITERIA = 10;
export const MAX_CRITERION_LENGTH = 2_000;
export const MAX_TASK_DESCRIPTION_LENGTH = 100_000;

const notBlank = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim() !== '', 'must not be empty');

export const criterionSchema = z.union([
  notBlank(MAX_CRITERION_LENGTH),
  z.object({ text: notBlank(MAX_CRITERION_LENGTH), check: machineCheckSchema.optional() }).strict(),
]);

/** Any RFC 3339 offset is the same instant in UTC (the answers write every instant in UTC, with Z). */
export const instantSchema = z.iso.datetime({
  offset: true,
  error:
    'must be an RFC 3339 timestamp with Z or an offset (e.g. 2030-01-01T00:00:00Z or 2030-01-01T01:00:00+01:00)',
});

/** 1 to 10 acceptance criteria: a contract's, or a milestone's (./milestones). */
export const acceptanceCriteriaSchema = z
  .array(criterionSchema)
  .min(MIN_CRITERIA, `must hold ${MIN_CRITERIA} to ${MAX_CRITERIA} criteria`)
  .max(MAX_CRITERIA, `must hold ${MIN_CRITERIA} to ${MAX_CRITERIA} criteria`);

export const supplementaryMaterialsSchema = z
  .object({
    uri: z.string().min(1, 'must not be empty').max(2048),
    sha256: z
      .string()
      .regex(SHA256_RE, 'must be the sha256 of the encrypted content (64 hex)')
      .transform((s) => s.toLowerCase()),
    key: z.string().min(1, 'must not be empty').max(4096),
  })
  .strict();

export const MIN_MILESTONES = 2;
export const MAX_MILESTONES = 10;
export const MAX_MILESTONE_TITLE_LENGTH = 200;

/** One milestone of a plan (./milestones): its own criteria, share of the price and deadlines. */
export const milestoneSchema = z
  .object({
    title: notBlank(MAX_MILESTONE_TITLE_LENGTH),
    acceptanceCriteria: acceptanceCriteriaSchema,
    shareBps: z
      .number({ error: 'must be an integer number of basis points' })
      .int('must be an integer number of basis points')
      .min(1, 'must be at least 1')
      .max(10_000, 'must be at most 10000'),
    deadlines: z.object({ delivery: instantSchema, review: instantSchema.optional() }).strict(),
  })
  .strict();

/** The `milestones` field as a body carries it (deadlines as RFC 3339 instants). */
export const milestonePlanSchema = z
  .array(milestoneSchema)
  .min(MIN_MILESTONES, `must hold ${MIN_MILESTONES} to ${MAX_MILESTONES} milestones`)
  .max(MAX_MILESTONES, `must hold ${MIN_MILESTONES} to ${MAX_MILESTONES} milestones`);

export const createContractBodySchema = z
  .object({
    contractType: z.enum(CONTRACT_TYPES),
    awardMethod: z.enum(AWARD_METHODS),
    verificationMode: z.enum(VERIFICATION_MODES).optional(),
    worker: addressSchema.optional(),
    taskDescription: notBlank(MAX_TASK_DESCRIPTION_LENGTH),
    /** Required without milestones; omitted with them (each milestone has its own). */
    acceptanceCriteria: acceptanceCriteriaSchema.optional(),
    supplementaryMaterials: supplementaryMaterialsSchema.optional(),
    /** The fixed price, or the budget cap of an auction. */
    amount: positiveAmountSchema,
    deadlines: z
      .object({
        match: instantSchema,
        withdrawal: instantSchema,
        /** Required without milestones; with them the last milestone's (omit them or repeat them). */
        delivery: instantSchema.optional(),
        review: instantSchema.optional(),
      })
      .strict(),
    /** 2 to 10 milestones, worked and settled one at a time (docs/protocol.md §6a). */
    milestones: milestonePlanSchema.optional(),
  })
  .strict();
export type CreateContractBody = z.input<typeof createContractBodySchema>;
/** The body as the schema parses it (criteria as written, deadlines as ISO strings). */
export type ContractBody = z.output<typeof createContractBodySchema>;

/** The schema's failures on a body, each naming its field ('(body)' for the body as a whole). */
export function contractBodyErrors(error: { issues: readonly z.core.$ZodIssue[] }): FieldError[] {
  return fieldErrors(error.issues).map((e) => ({ ...e, field: e.field || '(body)' }));
}
