// Temporal activities that move money through the ledger. Every operation id is built from the
// contract and the step (plus the party where several may act), never from the attempt number, so a
// retried activity replays instead of moving money twice. Amounts cross the activity boundary as
// decimal strings of minor units (payloads are JSON). Ledger domain errors become non-retryable
// ApplicationFailures whose type is the error's code (`InsufficientFunds`, `PartsMismatch`, ...);
// anything else (a database that is down) is thrown as is, so Temporal retries it.
import { isAddress } from '../workflows/rules/address';
import { asActivity, invalid } from './invalid-input';
import { HOLD_KINDS, agentOwner } from '../store/ledger';
import { lockEligibility, unlockEligibility } from '../store/ledger/eligibility';
import type { HoldKind, Ledger, LedgerOp, Owner } from '../store/ledger';
import type {
  LedgerActivities,
  LockResult,
  LockWithFeeResult,
  PanelFeeInput,
  SettleInput,
  SettleResult,
  SettlementPosting,
  WireAmount,
} from '../workflows/activity-interfaces';

export interface LedgerActivityDeps {
  ledger: Ledger;
}

const KEY = /^[A-Za-z0-9._-]{1,100}$/;

function parseAmount(value: unknown, field: string): bigint {
  if (typeof value === 'bigint' && value > 0n) return value;
  if (typeof value !== 'string' || !/^[1-9][0-9]*$/.test(value)) {
    invalid(field, 'must be a positive whole number of minor units as a decimal string');
  }
  return BigInt(value);
}

function parseKey(value: unknown, field: string): string {
  if (typeof value !== 'string' || !KEY.test(value))
    invalid(field, 'must be 1-100 characters of A-Z a-z 0-9 . _ -');
  return value;
}

function parseContractId(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100 || value.includes(':')) {
    invalid('contractId', 'must be a non-empty string of at most 100 characters without ":"');
  }
  return value;
}

/**
 * The prefix of every id a contract's step names: the contract ID, or within a milestone after the first
 * `<contractId>:milestone:<i>` (docs/protocol.md §6a), so each milestone's bonds, fees and batches are
 * its own while every hold still belongs to the contract.
 */
function idBase(contractId: string, scope: unknown): string {
  if (scope === undefined) return contractId;
  if (typeof scope !== 'string' || !/^milestone:[0-9]$/.test(scope))
    invalid('scope', 'must be milestone:<0-9>');
  return `${contractId}:${scope}`;
}

function parseAgent(value: unknown, field: string): Owner {
  if (!isAddress(value)) invalid(field, 'must be a 0x + 40 hex address');
  return agentOwner(value);
}

/** An agent address or the Treasury. */
function parseParty(value: unknown, field: string): Owner {
  return value === 'treasury' ? 'treasury' : parseAgent(value, field);
}

/** The mandate a delegate's hold is committed under, when one is named. */
function parseMandate(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return parseKey(value, 'mandate');
}

function mandated(value: unknown): { mandate?: string } {
  const mandate = parseMandate(value);
  return mandate === undefined ? {} : { mandate };
}

function addressPart(owner: Owner): string {
  return owner.slice('agent:'.length);
}

function toOp(posting: SettlementPosting, id: string, contractId: string, field: string): LedgerOp {
  switch (posting.type) {
    case 'resolve':
      if (!Array.isArray(posting.parts)) invalid(`${field}.parts`, 'must be an array');
      return {
        kind: 'resolve',
        id,
        holdId: String(posting.holdId),
        contractId,
        parts: posting.parts.map((p, i) => ({
          to: parseParty(p.to, `${field}.parts[${i}].to`),
          amount: p.amount === '0' ? 0n : parseAmount(p.amount, `${field}.parts[${i}].amount`),
        })),
      };
    case 'void':
      return { kind: 'void', id, holdId: String(posting.holdId) };
    case 'hold': {
      if (!HOLD_KINDS.includes(posting.kind))
        invalid(`${field}.kind`, `must be one of ${HOLD_KINDS.join(', ')}`);
      return {
        kind: 'hold',
        id,
        owner: parseAgent(posting.owner, `${field}.owner`),
        asset: 'USDC',
        amount: parseAmount(posting.amount, `${field}.amount`),
        holdKind: posting.kind,
        ...(posting.kind === 'eligibility' ? {} : { contractId }),
        ...mandated(posting.mandate),
      };
    }
    case 'mint':
      return {
        kind: 'mint',
        id,
        asset: 'OCT',
        to: parseParty(posting.to, `${field}.to`),
        amount: parseAmount(posting.amount, `${field}.amount`),
        contractId,
      };
    default:
      invalid(`${field}.type`, 'must be one of resolve, void, hold, transfer, mint');
  }
}

function parseFee(fee: PanelFeeInput | undefined): { round: 'panel' | 'appeal'; amount: bigint } | null {
  if (fee === undefined) return null;
  if (fee === null || typeof fee !== 'object') invalid('panelFee', 'must be an object');
  if (fee.round !== 'panel' && fee.round !== 'appeal') invalid('panelFee.round', 'must be panel or appeal');
  return { round: fee.round, amount: parseAmount(fee.amount, 'panelFee.amount') };
}

export function createLedgerActivities({ ledger }: LedgerActivityDeps): LedgerActivities {
  /**
   * A party's hold and the panel fee it brings, in one batch (all or nothing): `amount` "0" holds the
   * fee alone. The fee's hold is `<contractId>:panel-fee:<round>`, of the ledger's kind `dispute-bond`.
   */
  async function lockWithFee(
    id: string,
    owner: Owner,
    amountWire: WireAmount,
    holdKind: HoldKind,
    contractId: string,
    feeInput: PanelFeeInput | undefined,
    mandate: string | undefined,
    base: string = contractId,
  ): Promise<LockWithFeeResult> {
    const fee = parseFee(feeInput);
    if (fee === null)
      return {
        ...(await lock(id, owner, parseAmount(amountWire, 'amount'), holdKind, contractId, mandate)),
        feeHoldId: null,
      };
    const amount = amountWire === '0' ? 0n : parseAmount(amountWire, 'amount');
    const feeHoldId = `${base}:panel-fee:${fee.round}`;
    const hold = (holdId: string, value: bigint, kind: HoldKind): LedgerOp => ({
      kind: 'hold',
      id: holdId,
      owner,
      asset: 'USDC',
      amount: value,
      holdKind: kind,
      contractId,
      ...(mandate === undefined ? {} : { mandate }),
    });
    const ops = [
      ...(amount > 0n ? [hold(id, amount, holdKind)] : []),
      hold(feeHoldId, fee.amount, 'dispute-bond'),
    ];
    const results = await asActivity(() => ledger.batch(ops));
    return { holdId: id, replayed: results.every((r) => r.replayed), feeHoldId };
  }

  async function lock(
    id: string,
    owner: Owner,
    amount: bigint,
    holdKind: HoldKind,
    contractId?: string,
    mandate?: string,
  ): Promise<LockResult> {
    const result = await asActivity(() =>
      ledger.hold({
        id,
        owner,
        asset: 'USDC',
        amount,
        holdKind,
        ...(contractId ? { contractId } : {}),
        ...(mandate === undefined ? {} : { mandate }),
      }),
    );
    return { holdId: id, replayed: result.replayed };
  }

  /** Voids every hold of the contract still open, each under its own id, so a retry voids nothing twice. */
  async function releaseStrayHolds(contractId: string): Promise<void> {
    const open = (await ledger.holdsByContract(contractId)).filter((h) => h.status === 'open');
    if (open.length === 0) return;
    await asActivity(() =>
      ledger.batch(open.map((h): LedgerOp => ({ kind: 'void', id: `${h.id}:stray`, holdId: h.id }))),
    );
  }

  /** One atomic ledger batch; `replayed` when every operation had already been applied (a retry). */
  async function applyBatch(ops: LedgerOp[]): Promise<SettleResult> {
    const results = await asActivity(() => ledger.batch(ops));
    return { opIds: results.map((r) => r.id), replayed: results.every((r) => r.replayed) };
  }

  return {
    /** Holds the Client's Escrowed Funds: hold `<contractId>:escrow` (with a standard-mode panel fee). */
    async lockEscrow(input) {
      const contractId = parseContractId(input.contractId);
      parseAmount(input.amount, 'amount');
      return lockWithFee(
        `${contractId}:escrow`,
        parseAgent(input.client, 'client'),
        input.amount,
        'escrow',
        contractId,
        input.panelFee,
        parseMandate(input.mandate),
      );
    },

    /** Holds a Worker Stake: hold `<contractId>:stake:<worker>`, one per caller in an open tender. */
    async lockStake(input: {
      contractId: string;
      worker: string;
      amount: WireAmount;
      mandate?: string;
    }): Promise<LockResult> {
      const contractId = parseContractId(input.contractId);
      const worker = parseAgent(input.worker, 'worker');
      return lock(
        `${contractId}:stake:${addressPart(worker)}`,
        worker,
        parseAmount(input.amount, 'amount'),
        'stake',
        contractId,
        parseMandate(input.mandate),
      );
    },

    /** Holds a Dispute Bond or a BA bond: hold `<contractId>:<kind>:<party>`. */
    async lockBond(input) {
      const contractId = parseContractId(input.contractId);
      if (input.kind !== 'dispute-bond' && input.kind !== 'ba-bond')
        invalid('kind', 'must be dispute-bond or ba-bond');
      const party = parseAgent(input.party, 'party');
      const base = idBase(contractId, input.scope);
      return lockWithFee(
        `${base}:${input.kind}:${addressPart(party)}`,
        party,
        input.amount,
        input.kind,
        contractId,
        input.panelFee,
        parseMandate(input.mandate),
        base,
      );
    },

    /**
     * Holds an Appeal Bond: hold `<contractId>:appeal-bond:<party>`, of the ledger's kind
     * `dispute-bond` (a bond a party posts to contest an outcome).
     */
    async lockAppealBond(input) {
      const contractId = parseContractId(input.contractId);
      const party = parseAgent(input.party, 'party');
      const base = idBase(contractId, input.scope);
      return lockWithFee(
        `${base}:appeal-bond:${addressPart(party)}`,
        party,
        input.amount,
        'dispute-bond',
        contractId,
        input.panelFee,
        parseMandate(input.mandate),
        base,
      );
    },

    /** Adds to an agent's BA Eligibility Stake: hold `eligibility:<address>:lock:<key>` (key: the request's idempotency key). */
    async lockEligibility(input: { address: string; amount: WireAmount; key: string }): Promise<LockResult> {
      const owner = parseAgent(input.address, 'address');
      const key = parseKey(input.key, 'key');
      const amount = parseAmount(input.amount, 'amount');
      return asActivity(() => lockEligibility(ledger, owner, amount, key));
    },

    /** Releases `amount` of the agent's free eligibility stake, all of it when omitted (store/ledger/eligibility.ts). */
    async unlockEligibility(input: {
      address: string;
      amount?: WireAmount;
      key: string;
    }): Promise<{ released: WireAmount }> {
      const owner = parseAgent(input.address, 'address');
      const key = parseKey(input.key, 'key');
      const wanted = input.amount === undefined ? undefined : parseAmount(input.amount, 'amount');
      const released = await asActivity(() => unlockEligibility(ledger, owner, wanted, key));
      return { released: released.toString() };
    },

    /** Applies every posting of one settlement step in one atomic batch: op ids `<contractId>:<step>:<index>`. */
    async settle(input: SettleInput): Promise<SettleResult> {
      const contractId = parseContractId(input.contractId);
      const step = parseKey(input.step, 'step');
      if (!Array.isArray(input.postings) || input.postings.length === 0)
        invalid('postings', 'must be a non-empty array');
      if (input.final !== undefined && typeof input.final !== 'boolean')
        invalid('final', 'must be a boolean');
      const base = idBase(contractId, input.scope);
      const ops = input.postings.map((p, i) => toOp(p, `${base}:${step}:${i}`, contractId, `postings[${i}]`));
      const result = await applyBatch(ops);
      if (input.final === true) await releaseStrayHolds(contractId);
      return result;
    },

    /**
     * The Backup Agent registry: agents whose eligibility stake, free and seated, is at least
     * `minStake`, by address, with their free stake (`stake`) and the part their seats hold.
     */
    async listEligibleAgents(input: {
      minStake: WireAmount;
    }): Promise<Array<{ address: string; stake: WireAmount; seated: WireAmount }>> {
      const minStake = parseAmount(input.minStake, 'minStake');
      const agents = await ledger.eligibleAgents(minStake);
      return agents.map((a) => ({
        address: a.address,
        stake: a.stake.toString(),
        seated: a.seated.toString(),
      }));
    },
  };
}
