// Contract creation (docs/protocol.md §3): every creation rule applied to a parsed `POST /contracts` body
// (./contract-body), the normalized terms, the combination code and the escrow amount.
import { normalizeAddress, type Address } from './address';
import { contractBodyErrors, createContractBodySchema, type ContractBody } from './contract-body';
import { CONTRACT_CODES } from './contract-kinds';
import type { AwardMethod, ContractCode, ContractType, VerificationMode } from './contract-kinds';
import type { Deadlines } from './deadlines';
import type { FieldError } from './field-errors';
import type { MachineCheck } from './machine-checks';
import { validateMilestonePlan, type Milestone } from './milestones';

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
  /** The criteria in force: the contract's, or (with milestones) the current milestone's. */
  acceptanceCriteria: Criterion[];
  supplementaryMaterials: SupplementaryMaterials | null;
  /** The milestone plan (docs/protocol.md §6a), when the contract has one. */
  milestones?: Milestone[];
  /** Fixed price, or the budget cap of an auction. */
  amount: bigint;
  /** Epoch milliseconds. */
  deadlines: Deadlines;
}

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

function checkAward(body: ContractBody, client: Address): FieldError[] {
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
 * Applies every creation rule of docs/protocol.md §3 to a `POST /contracts` body. `client` is the signing
 * caller; `now` is epoch ms. Either normalized terms, or every broken rule naming its field.
 */
export function validateContractTerms(body: unknown, now: number, client: string): TermsResult {
  const parsed = createContractBodySchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: contractBodyErrors(parsed.error) };
  return checkContractBody(parsed.data, now, client);
}

/** Without milestones: the contract's own criteria and delivery deadline are required. */
function requireSinglePlan(b: ContractBody): FieldError[] {
  const errors: FieldError[] = [];
  if (b.acceptanceCriteria === undefined)
    errors.push({ field: 'acceptanceCriteria', message: 'is required' });
  if (b.deadlines.delivery === undefined)
    errors.push({ field: 'deadlines.delivery', message: 'is required' });
  return errors;
}

/**
 * With milestones: each has its own criteria (the contract's are omitted) and the contract's delivery and
 * review deadlines are the last milestone's (omitted, or repeated exactly).
 */
function milestonePlanFor(
  b: ContractBody,
  withdrawal: number,
  verificationMode: VerificationMode,
): { ok: true; milestones: Milestone[] } | { ok: false; errors: FieldError[] } {
  const plan = validateMilestonePlan(b.milestones, { withdrawal, verificationMode });
  const errors: FieldError[] = plan.ok ? [] : [...plan.errors];
  if (b.acceptanceCriteria !== undefined) {
    errors.push({
      field: 'acceptanceCriteria',
      message: 'must be omitted with milestones: each milestone has its own acceptanceCriteria',
    });
  }
  if (!plan.ok) return { ok: false, errors };
  const last = plan.milestones[plan.milestones.length - 1]!.deadlines;
  const same = (given: string | undefined, ms: number | null) =>
    given === undefined || (ms !== null && Date.parse(given) === ms);
  if (!same(b.deadlines.delivery, last.delivery))
    errors.push({ field: 'deadlines.delivery', message: "must be omitted or the last milestone's delivery" });
  if (!same(b.deadlines.review, last.review))
    errors.push({ field: 'deadlines.review', message: "must be omitted or the last milestone's review" });
  return errors.length === 0 ? plan : { ok: false, errors };
}

/** The rules of docs/protocol.md §3 beyond the schema, on a body the schema accepted (validateContractTerms). */
export function checkContractBody(b: ContractBody, now: number, client: string): TermsResult {
  const clientAddress = normalizeAddress(client);
  const verificationMode = b.verificationMode ?? defaultVerificationMode(b.awardMethod);
  const withdrawal = Date.parse(b.deadlines.withdrawal);
  let milestones: Milestone[] | undefined;
  if (b.milestones === undefined) {
    const missing = requireSinglePlan(b);
    if (missing.length > 0) return { ok: false, errors: [...missing, ...checkAward(b, clientAddress)] };
  } else {
    const plan = milestonePlanFor(b, withdrawal, verificationMode);
    if (!plan.ok) return { ok: false, errors: [...plan.errors, ...checkAward(b, clientAddress)] };
    milestones = plan.milestones;
  }
  const last = milestones?.[milestones.length - 1]!.deadlines;
  const deadlines: Deadlines = {
    match: Date.parse(b.deadlines.match),
    withdrawal,
    delivery: last?.delivery ?? Date.parse(b.deadlines.delivery!),
    review:
      last !== undefined
        ? last.review
        : b.deadlines.review === undefined
          ? null
          : Date.parse(b.deadlines.review),
  };
  const errors = [...checkAward(b, clientAddress), ...checkDeadlines(deadlines, verificationMode, now)];
  if (errors.length > 0) return { ok: false, errors };
  const criteria = milestones?.[0]!.acceptanceCriteria ?? b.acceptanceCriteria!;
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
      acceptanceCriteria: criteria.map((c) => (typeof c === 'string' ? { text: c } : c)),
      supplementaryMaterials: b.supplementaryMaterials ?? null,
      amount: b.amount,
      deadlines,
      ...(milestones === undefined ? {} : { milestones }),
    },
  };
}
