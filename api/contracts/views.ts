// What each caller sees of a contract (docs/api.md): the parties (Client, Worker, drawn Backup Agents)
// the whole ContractView; anyone else the public view — what a bidder needs to decide on the work.
import type { ContractView, QuoteView } from '../../workflows/definitions';
import { workerStakeFor } from '../../workflows/rules/holds';

export type PartyRole = 'client' | 'worker' | 'backup-agent';

/** The caller's role in the contract, or null for a stranger. A direct award's named Worker is the Worker. */
export function roleOf(view: ContractView, caller: string | undefined): PartyRole | null {
  if (caller === undefined) return null;
  if (view.client === caller) return 'client';
  if (view.worker === caller) return 'worker';
  if (view.backupAgents.includes(caller as `0x${string}`)) return 'backup-agent';
  return null;
}

const PUBLIC_FIELDS = [
  'contractId',
  'status',
  'contractCode',
  'contractType',
  'awardMethod',
  'verificationMode',
  'difficulty',
  'taskDescription',
  'acceptanceCriteria',
  'price',
  'budget',
  'workerStake',
  'deadlines',
  'nextDeadline',
  'createdAt',
  'quoteCount',
  'panelPending',
  'awaitingArbiter',
  'appealDeadline',
  'mayAppeal',
  'appealedBy',
  'revisionCount',
  'maxRevisions',
  'milestones',
  'currentMilestone',
] as const satisfies readonly (keyof ContractView)[];

/**
 * What accepting (a fixed price) or quoting (an auction) would lock, while the contract is open:
 * the Worker Stake for the price, or for an auction the rate applied to the quote's price. In every
 * view (public and party: a direct award's named Worker reads a party view), and the 402 precheck of
 * an accept uses it, so what a view announces is what accepting locks.
 */
export interface StakeToMatch {
  workerStakeBps: number;
  /** The floor of every Worker Stake and bid bond. */
  minWorkerStake: string;
  /** The Worker Stake for the fixed price; null for an auction (it depends on the quote). */
  workerStake: string | null;
  rule: string;
}

/** A bidder who is not the Client sees its own live quote (`ownQuote`), never the others'. */
export type PublicContractView = Pick<ContractView, (typeof PUBLIC_FIELDS)[number]> & {
  view: 'public';
  stakeToMatch: StakeToMatch | null;
  ownQuote?: QuoteView;
};
/** `quotes` (every bidder's price) is the Client's alone; a change request's note the Client's and the Worker's. */
export type PartyContractView = Omit<ContractView, 'created' | 'quotes'> & {
  view: 'party';
  role: PartyRole;
  stakeToMatch: StakeToMatch | null;
  quotes?: QuoteView[];
  ownQuote?: QuoteView;
};
export type ContractViewFor = PublicContractView | PartyContractView;

type StakeTerms = Pick<ContractView, 'workerStakeBps' | 'minWorkerStake'>;

/** The Worker Stake (or an auction's bid bond) for `price` under the contract's snapshot. */
export function stakeAt(view: StakeTerms, price: bigint): bigint {
  return workerStakeFor(price, {
    workerStakeBps: view.workerStakeBps,
    minWorkerStake: BigInt(view.minWorkerStake),
  });
}

/** The Worker Stake for the contract's price (null while it has none: an auction before its match). */
export function stakeForPrice(view: Pick<ContractView, 'price'> & StakeTerms): bigint | null {
  return view.price === null ? null : stakeAt(view, BigInt(view.price));
}

export function stakeToMatch(view: ContractView): StakeToMatch | null {
  if (view.status !== 'created') return null;
  const rate = view.workerStakeBps;
  const floor = view.minWorkerStake;
  const stake = stakeForPrice(view);
  const terms = { workerStakeBps: rate, minWorkerStake: floor };
  if (stake === null)
    return {
      ...terms,
      workerStake: null,
      rule: `bid bond = max(floor(quote price × ${rate} / 10000), ${floor}), held while the quote lives`,
    };
  return { ...terms, workerStake: stake.toString(), rule: `max(floor(price × ${rate} / 10000), ${floor})` };
}

export function publicView(view: ContractView): PublicContractView {
  const out = { view: 'public', stakeToMatch: stakeToMatch(view) } as Record<string, unknown>;
  for (const field of PUBLIC_FIELDS) out[field] = view[field];
  // A milestone's Criteria Met and payment are the parties', like the contract's own.
  out.milestones = view.milestones?.map((m) => ({ ...m, criteriaMet: null, payment: null })) ?? null;
  return out as PublicContractView;
}

export function partyView(view: ContractView, role: PartyRole): PartyContractView {
  const { created: _created, quotes, revisions, ...rest } = view;
  return {
    view: 'party',
    role,
    ...rest,
    revisions: role === 'backup-agent' ? revisions.map((r) => ({ ...r, note: null })) : revisions,
    stakeToMatch: stakeToMatch(view),
    ...(role === 'client' ? { quotes } : {}),
  };
}

/** The party view for a party, the public view for anyone else; a bidder also gets its own quote. */
export function viewFor(view: ContractView, caller: string | undefined): ContractViewFor {
  const role = roleOf(view, caller);
  const seen = role === null ? publicView(view) : partyView(view, role);
  const ownQuote = role === 'client' ? undefined : view.quotes.find((q) => q.bidder === caller);
  return ownQuote === undefined ? seen : { ...seen, ownQuote };
}
