// Contract creation (SPEC §3, Appendix A `POST /contracts`): the body schema, every creation rule,
// the normalized terms, the combination code and the escrow amount.
import { z } from 'zod';
import { addressSchema, normalizeAddress, type Address } from './address';
import type { Deadlines } from './deadlines';
import { machineCheckSchema, type MachineCheck } from './machine-checks';
import { fieldErrors, type FieldError } from './field-errors';
import { positiveAmountSchema, toWire } from './money';
import { SHA256_RE } from './sha256';
import { AWARD_METHODS, CONTRACT_CODES, CONTRACT_TYPES, VERIFICATION_MODES } from './contract-kinds';
import type { AwardMethod, ContractCode, ContractType, VerificationMode } from './contract-kinds';

// The kinds are named where the creation rules are, too.
export * from './contract-kinds';

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

const utcInstant = z.iso.datetime({ error: 'must be an ISO-8601 UTC timestamp (e.g. 2030-01-01T00:00:00Z)' });

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

export const createContractBodySchema = z
  .object({
    contractType: z.enum(CONTRACT_TYPES),
    awardMethod: z.enum(AWARD_METHODS),
    verificationMode: z.enum(VERIFICATION_MODES).optional(),
    worker: addressSchema.optional(),
    taskDescription: notBlank(MAX_TASK_DESCRIPTION_LENGTH),
    acceptanceCriteria: z
      .array(criterionSchema)
      .min(MIN_CRITERIA, `must hold ${MIN_CRITERIA} to ${MAX_CRITERIA} criteria`)
      .max(MAX_CRITERIA, `must hold ${MIN_CRITERIA} to ${MAX_CRITERIA} criteria`),
    supplementaryMaterials: supplementaryMaterialsSchema.optional(),
    /** The fixed price, or the budget cap of an auction. */
    amount: positiveAmountSchema,
    deadlines: z
      .object({
        match: utcInstant,
        withdrawal: utcInstant,
        delivery: utcInstant,
        review: utcInstant.optional(),
      })
      .strict(),
  })
  .strict();
export type CreateContractBody = z.input<typeof createContractBodySchema>;

export interface Criterion {
  text: string;
  check?: MachineCheck;
}

export interface SupplementaryMaterials {
  uri: string;
  sha256: string;
  key: string;
}

export interface ContractTerms {
  client: Address;
  contractType: ContractType;
  awardMethod: AwardMethod;
  verificationMode: VerificationMode;
  code: ContractCode;
  /** Named at creation for a direct award; null for an open tender until matched. */
  worker: Address | null;
  taskDescription: string;
  acceptanceCriteria: Criterion[];
  supplementaryMaterials: SupplementaryMaterials | null;
  /** Fixed price, or the budget cap of an auction. */
  amount: bigint;
  /** Epoch milliseconds. */
  deadlines: Deadlines;
}

export type ContractTermsWire = Omit<ContractTerms, 'amount'> & { amount: string };

export type { FieldError } from './field-errors';

export type TermsResult = { ok: true; terms: ContractTerms } | { ok: false; errors: FieldError[] };

export function defaultVerificationMode(awardMethod: AwardMethod): VerificationMode {
  return awardMethod === 'open' ? 'standard' : 'privacy-preserving';
}

export function contractCode(
  terms: Pick<ContractTerms, 'contractType' | 'awardMethod' | 'verificationMode'>,
): ContractCode {
  const code = [terms.contractType, terms.awardMethod, terms.verificationMode]
    .map((word) => word[0]!.toUpperCase())
    .join('');
  if (!(CONTRACT_CODES as readonly string[]).includes(code))
    throw new RangeError(`no contract combination ${code}`);
  return code as ContractCode;
}

/** The Escrowed Funds locked at creation: the fixed price, or the auction's budget cap. */
export function escrowAmount(terms: Pick<ContractTerms, 'amount'>): bigint {
  return terms.amount;
}

type ParsedBody = z.output<typeof createContractBodySchema>;

function checkAward(body: ParsedBody, client: Address): FieldError[] {
  const errors: FieldError[] = [];
  if (body.contractType === 'auction' && body.awardMethod === 'direct') {
    errors.push({ field: 'awardMethod', message: 'an auction is always an open tender: use "open"' });
  }
  if (body.awardMethod === 'direct' && body.worker === undefined) {
    errors.push({ field: 'worker', message: 'a direct award must name the Worker' });
  }
  if (body.awardMethod === 'open' && body.worker !== undefined) {
    errors.push({ field: 'worker', message: 'an open tender must not name a Worker' });
  }
  if (body.worker === client)
    errors.push({ field: 'worker', message: 'the Client cannot be its own Worker' });
  return errors;
}

function checkDeadlines(deadlines: Deadlines, mode: VerificationMode, now: number): FieldError[] {
  const errors: FieldError[] = [];
  const order = (field: keyof Deadlines, ok: boolean, message: string) => {
    if (!ok) errors.push({ field: `deadlines.${field}`, message });
  };
  order('match', deadlines.match > now, 'must be in the future');
  order('withdrawal', deadlines.withdrawal >= deadlines.match, 'must not be before deadlines.match');
  order('delivery', deadlines.delivery > deadlines.withdrawal, 'must be after deadlines.withdrawal');
  if (deadlines.review === null) {
    order('review', mode === 'standard', 'is required in privacy-preserving mode (the Client reviews)');
  } else {
    order('review', deadlines.review > deadlines.delivery, 'must be after deadlines.delivery');
  }
  return errors;
}

/**
 * Applies every creation rule of SPEC §3 to a `POST /contracts` body. `client` is the signing
 * caller; `now` is epoch ms. Either normalized terms, or every broken rule naming its field.
 */
export function validateContractTerms(body: unknown, now: number, client: string): TermsResult {
  const parsed = createContractBodySchema.safeParse(body);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues).map((e) => ({ ...e, field: e.field || '(body)' }));
    return { ok: false, errors };
  }
  const b = parsed.data;
  const clientAddress = normalizeAddress(client);
  const verificationMode = b.verificationMode ?? defaultVerificationMode(b.awardMethod);
  const deadlines: Deadlines = {
    match: Date.parse(b.deadlines.match),
    withdrawal: Date.parse(b.deadlines.withdrawal),
    delivery: Date.parse(b.deadlines.delivery),
    review: b.deadlines.review === undefined ? null : Date.parse(b.deadlines.review),
  };
  const errors = [...checkAward(b, clientAddress), ...checkDeadlines(deadlines, verificationMode, now)];
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    terms: {
      client: clientAddress,
      contractType: b.contractType,
      awardMethod: b.awardMethod,
      verificationMode,
      code: contractCode({ contractType: b.contractType, awardMethod: b.awardMethod, verificationMode }),
      worker: b.worker ?? null,
      taskDescription: b.taskDescription,
      acceptanceCriteria: b.acceptanceCriteria.map((c) => (typeof c === 'string' ? { text: c } : c)),
      supplementaryMaterials: b.supplementaryMaterials ?? null,
      amount: b.amount,
      deadlines,
    },
  };
}

export function termsToWire(terms: ContractTerms): ContractTermsWire {
  return { ...terms, amount: toWire(terms.amount) };
}

/** The deadlines as ISO-8601 UTC strings, for views and responses. */
export function deadlinesToIso(deadlines: Deadlines): Record<keyof Deadlines, string | null> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    match: iso(deadlines.match),
    withdrawal: iso(deadlines.withdrawal),
    delivery: iso(deadlines.delivery),
    review: iso(deadlines.review),
  };
}
