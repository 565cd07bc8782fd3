// Contract creation (docs/protocol.md §3): every creation rule applied to a parsed `POST /contracts` body
// (./contract-body), the normalized terms, the combination code and the escrow amount.
import { normalizeAddress, type Address } from './address';
import { contractBodyErrors, createContractBodySchema, type ContractBody } from './contract-body';
import { CONTRACT_CODES } from './contract-kinds';
import type { AwardMethod, ContractCode, ContractType, VerificationMode } from './contract-kinds';
import type { Deadlines } from './deadlines';
import type { FieldError } from './field-errors';
import type { MachineCheck } from './machine-checks';

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

/** The rules of docs/protocol.md §3 beyond the schema, on a body the schema accepted (validateContractTerms). */
export function checkContractBody(b: ContractBody, now: number, client: string): TermsResult {
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
