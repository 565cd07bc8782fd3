// Checks and normalizes operations before they reach a store, and gives each its canonical body:
// the text stored with the operation id, compared on a repeat to tell a replay from a conflict.
import { ADDRESS_RE } from '../../workflows/rules/address-format';
import { InvalidOperationError } from './errors';
import { ASSETS, ASSET_ISSUANCE, HOLD_KINDS } from './types';
import type { Asset, HoldKind, LedgerOp, Owner, ResolvePart } from './types';

/** Amounts are stored as signed 64-bit integers in both stores. */
export const MAX_AMOUNT = 2n ** 63n - 1n;
export const MAX_PARTS = 32;
const MAX_ID_LENGTH = 200;

/** The account owner for an agent address (any case in, lowercase out). */
export function agentOwner(address: string): Owner {
  if (!ADDRESS_RE.test(address))
    throw new InvalidOperationError('address', `not a 0x + 40 hex address: ${address}`);
  return `agent:${address.toLowerCase()}` as Owner;
}

/** The agent's address, or undefined for the Treasury and the mint. */
export function addressOf(owner: Owner): string | undefined {
  return owner.startsWith('agent:') ? owner.slice('agent:'.length) : undefined;
}

function fail(field: string, problem: string): never {
  throw new InvalidOperationError(field, problem);
}

function checkId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(field, 'must be a non-empty string');
  if (value.length > MAX_ID_LENGTH) fail(field, `must be at most ${MAX_ID_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) fail(field, 'must not contain control characters');
  return value;
}

function checkOptionalId(value: unknown, field: string): string | undefined {
  return value === undefined ? undefined : checkId(value, field);
}

function checkAmount(value: unknown, field: string, allowZero = false): bigint {
  if (typeof value !== 'bigint') fail(field, 'must be a bigint');
  if (value < 0n || (value === 0n && !allowZero))
    fail(field, allowZero ? 'must not be negative' : 'must be positive');
  if (value > MAX_AMOUNT) fail(field, `must be at most ${MAX_AMOUNT}`);
  return value;
}

function checkAsset(value: unknown, field: string): Asset {
  if (!ASSETS.includes(value as Asset)) fail(field, `must be one of ${ASSETS.join(', ')}`);
  return value as Asset;
}

/** Any owner but the mint, which only deposit, withdraw and mint touch. */
function checkOwner(value: unknown, field: string): Owner {
  if (value === 'treasury') return value;
  if (typeof value === 'string' && value.startsWith('agent:')) {
    const address = value.slice('agent:'.length);
    if (ADDRESS_RE.test(address)) return `agent:${address.toLowerCase()}` as Owner;
  }
  fail(field, "must be 'treasury' or 'agent:' + a 0x address");
}

function checkHoldKind(value: unknown, field: string): HoldKind {
  if (!HOLD_KINDS.includes(value as HoldKind)) fail(field, `must be one of ${HOLD_KINDS.join(', ')}`);
  return value as HoldKind;
}

/** An asset that enters and leaves the system the given way (USDC by deposit, OCT by mint). */
function checkIssuedAsset(value: unknown, way: 'deposit' | 'mint', field: string): Asset {
  const asset = checkAsset(value, field);
  if (ASSET_ISSUANCE[asset] !== way)
    fail(field, `${asset} cannot be ${way === 'mint' ? 'minted' : 'deposited or withdrawn'}`);
  return asset;
}

function checkFields(op: Record<string, unknown>, allowed: string[], field: string): void {
  for (const key of Object.keys(op)) {
    if (!allowed.includes(key) && op[key] !== undefined) fail(`${field}.${key}`, 'unknown field');
  }
}

function checkParts(value: unknown, field: string): ResolvePart[] {
  if (!Array.isArray(value) || value.length === 0) fail(field, 'must be a non-empty array');
  if (value.length > MAX_PARTS) fail(field, `must have at most ${MAX_PARTS} parts`);
  return value.map((part: unknown, i) => {
    if (typeof part !== 'object' || part === null) fail(`${field}[${i}]`, 'must be an object');
    const p = part as Record<string, unknown>;
    checkFields(p, ['to', 'amount'], `${field}[${i}]`);
    return {
      to: checkOwner(p.to, `${field}[${i}].to`),
      amount: checkAmount(p.amount, `${field}[${i}].amount`, true),
    };
  });
}

/** Returns a clean copy of `input` (only known fields, owners lowercased) or throws naming the field. */
export function normalizeOp(input: unknown, field = 'op'): LedgerOp {
  if (typeof input !== 'object' || input === null) fail(field, 'must be an object');
  const op = input as Record<string, unknown>;
  const id = checkId(op.id, `${field}.id`);
  const f = (name: string) => `${field}.${name}`;
  switch (op.kind) {
    case 'deposit':
    case 'withdraw': {
      // Mirror images: money comes in `to` an owner, or goes out `from` one.
      const side = op.kind === 'deposit' ? 'to' : 'from';
      checkFields(op, ['kind', 'id', 'asset', side, 'amount'], field);
      const asset = checkIssuedAsset(op.asset, 'deposit', f('asset'));
      const owner = checkOwner(op[side], f(side));
      const amount = checkAmount(op.amount, f('amount'));
      return op.kind === 'deposit'
        ? { kind: 'deposit', id, asset, to: owner, amount }
        : { kind: 'withdraw', id, asset, from: owner, amount };
    }
    case 'transfer': {
      checkFields(op, ['kind', 'id', 'asset', 'from', 'to', 'amount', 'contractId'], field);
      const from = checkOwner(op.from, f('from'));
      const to = checkOwner(op.to, f('to'));
      if (from === to) fail(f('to'), 'must differ from `from`');
      return {
        kind: 'transfer',
        id,
        asset: checkAsset(op.asset, f('asset')),
        from,
        to,
        amount: checkAmount(op.amount, f('amount')),
        contractId: checkOptionalId(op.contractId, f('contractId')),
      };
    }
    case 'hold': {
      checkFields(op, ['kind', 'id', 'owner', 'asset', 'amount', 'holdKind', 'contractId', 'mandate'], field);
      const holdKind = checkHoldKind(op.holdKind, f('holdKind'));
      const contractId = checkOptionalId(op.contractId, f('contractId'));
      const mandate = checkOptionalId(op.mandate, f('mandate'));
      if (mandate !== undefined && contractId === undefined)
        fail(f('mandate'), 'only a contract hold is committed under a mandate');
      if (holdKind === 'eligibility' && contractId !== undefined)
        fail(f('contractId'), 'an eligibility hold belongs to no contract');
      if (holdKind !== 'eligibility' && contractId === undefined)
        fail(f('contractId'), `required for a ${holdKind} hold`);
      return {
        kind: 'hold',
        id,
        owner: checkOwner(op.owner, f('owner')),
        asset: checkAsset(op.asset, f('asset')),
        amount: checkAmount(op.amount, f('amount')),
        holdKind,
        contractId,
        ...(mandate === undefined ? {} : { mandate }),
      };
    }
    case 'resolve':
      checkFields(op, ['kind', 'id', 'holdId', 'parts', 'contractId'], field);
      return {
        kind: 'resolve',
        id,
        holdId: checkId(op.holdId, f('holdId')),
        parts: checkParts(op.parts, f('parts')),
        contractId: checkOptionalId(op.contractId, f('contractId')),
      };
    case 'void':
      checkFields(op, ['kind', 'id', 'holdId'], field);
      return { kind: 'void', id, holdId: checkId(op.holdId, f('holdId')) };
    case 'mint': {
      checkFields(op, ['kind', 'id', 'asset', 'to', 'amount', 'contractId'], field);
      const asset = checkIssuedAsset(op.asset, 'mint', f('asset'));
      return {
        kind: 'mint',
        id,
        asset,
        to: checkOwner(op.to, f('to')),
        amount: checkAmount(op.amount, f('amount')),
        contractId: checkOptionalId(op.contractId, f('contractId')),
      };
    }
    default:
      fail(f('kind'), 'must be one of deposit, withdraw, transfer, hold, resolve, void, mint');
  }
}

/** Normalizes a batch; ids must be unique within it. */
export function normalizeBatch(ops: unknown): LedgerOp[] {
  if (!Array.isArray(ops) || ops.length === 0) fail('ops', 'must be a non-empty array');
  const seen = new Set<string>();
  return ops.map((op: unknown, i) => {
    const normalized = normalizeOp(op, `ops[${i}]`);
    if (seen.has(normalized.id)) fail(`ops[${i}].id`, `repeats ${normalized.id} within the batch`);
    seen.add(normalized.id);
    return normalized;
  });
}

/** The canonical text of an operation's fields (id excluded): equal bodies mean "the same operation". */
export function canonicalBody(op: LedgerOp): string {
  const { id: _id, ...fields } = op;
  return JSON.stringify(fields, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}
