// Admission against the run's Temporal budget (rules/budget, docs/security.md "Temporal budget"):
// checked with a message's rules, in the Update's validator (a refused Update writes no history) and on
// the Signal path, never again after a wait. The parties and the drawn panel are never refused for
// headroom: the budget left once non-parties are cut off is theirs.
import { workflowInfo } from '@temporalio/workflow';
import { FailureType, type QuoteInput } from '../definitions';
import type { Address } from '../rules/address';
import { beatsBest, displacedQuote, type Quote } from '../rules/auction';
import { BUDGET } from '../rules/budget';
import { candidateQuote } from './match/bidding';
import type { ContractMessage } from '../rules/message-names';
import { rejection, type Rejection } from './rejection';
import { callerOf, firstBroken, type Check } from './checks';
import type { AuctionQuote } from './match/state';
import type { Contract } from './state';

/** The Client, the matched (or named) Worker, or a drawn Backup Agent. */
export function isParty(c: Contract, caller: Address | null): boolean {
  if (caller === null) return false;
  return (
    caller === c.terms.client ||
    caller === c.match.worker ||
    (c.panel.current?.members.includes(caller) ?? false)
  );
}

const limit = (code: string, message: string): Rejection => rejection(FailureType.Conflict, code, message);

/** Non-parties stop before the run nears Temporal's limits, so the parties' messages always get through. */
const headroom =
  (c: Contract): Check =>
  () => {
    const info = workflowInfo();
    const spent =
      info.historyLength >= BUDGET.nonPartyHistoryEvents ||
      info.continueAsNewSuggested ||
      c.spent.updates >= BUDGET.nonPartyUpdates;
    return spent
      ? limit(
          'contract_busy',
          'this contract takes no more messages from non-parties; its parties may still act',
        )
      : null;
  };

/** Where a bidder's quote stands against the bidder cap: room, the worst quote it replaces, or refused. */
export type CapPlace = { kind: 'room' } | { kind: 'replaces'; quote: AuctionQuote } | { kind: 'full' };

/**
 * A bidder already quoting, or a cap with room, takes the quote; at a full cap a newcomer's quote that
 * ranks above the worst standing quote replaces it (rules/auction displacedQuote), any other is refused.
 */
export function placeAtCap(c: Contract, candidate: Quote): CapPlace {
  const { quotes } = c.match;
  const newBidder = !quotes.some((q) => q.bidder === candidate.bidder);
  if (!newBidder || quotes.length < BUDGET.biddersPerContract) return { kind: 'room' };
  const displaced = displacedQuote(quotes, candidate);
  return displaced === null ? { kind: 'full' } : { kind: 'replaces', quote: displaced };
}

export const bidderLimit = (): Rejection =>
  limit(
    'bidder_limit',
    `this auction has its ${BUDGET.biddersPerContract} bidders: a new quote must rank above the worst standing one`,
  );

/**
 * The per-bidder cap bounds each key; the per-contract total bounds the run's history, except for a
 * quote that would become the best (it lowers the price its bidder is bonded to; the non-party
 * headroom still bounds those). The bidder cap never refuses a better quote (placeAtCap).
 */
const quoteLimits =
  (c: Contract, input: QuoteInput): Check =>
  () => {
    const candidate = candidateQuote(c, input);
    if (c.spent.quotesOf(candidate.bidder) >= BUDGET.quotesPerBidder) {
      return limit('quote_limit', `a bidder may quote at most ${BUDGET.quotesPerBidder} times on a contract`);
    }
    if (c.match.quoteSequence >= BUDGET.quotesPerContract && !beatsBest(c.match.quotes, candidate)) {
      // Not lasting: a better quote from the same caller would pass.
      return limit(
        'quote_limit_total',
        `this auction took its ${BUDGET.quotesPerContract} quotes: only a quote better than the best is taken`,
      );
    }
    return placeAtCap(c, candidate).kind === 'full' ? bidderLimit() : null;
  };

/**
 * A failed lock costs history: each non-party gets a few. Once non-parties' failures (and the accepts
 * still pending) reach the contract's total, only an agent that never failed here may try (an honest
 * Worker always gets its one try); the non-party headroom bounds those. Parties are never refused for
 * their failures (a Client short of its Dispute Bond disputes again once it deposits): their messages
 * are the run's reserved budget, bounded by Temporal's Update limit per run.
 */
const lockLimits =
  (c: Contract, caller: Address): Check =>
  () => {
    const failed = c.spent.failedLocksOf(caller);
    if (failed >= BUDGET.failedLocksPerAgent) {
      return limit(
        'lock_limit',
        `${BUDGET.failedLocksPerAgent} of this agent's locks failed on this contract`,
      );
    }
    const contractTotal = c.spent.failedLocks + c.spent.acceptsPending.length;
    if (failed > 0 && contractTotal >= BUDGET.failedLocksPerContract) {
      // Not lasting (rules/budget LASTING_REFUSALS): pending accepts count until they end.
      return limit('lock_limit_total', `${BUDGET.failedLocksPerContract} locks failed on this contract`);
    }
    return null;
  };

const oneAcceptAtATime =
  (c: Contract, caller: Address): Check =>
  () =>
    c.spent.acceptsPending.includes(caller)
      ? limit('accept_pending', 'this agent already has an accept waiting on this contract')
      : null;

/** Messages that lock the caller's own money (a quote its bid bond, an appeal its Appeal Bond; an award locks nothing any more). */
const LOCKING: readonly ContractMessage[] = ['accept', 'quote', 'dispute', 'vote', 'appeal'];

/** The budget's refusal of `message` from its caller, or null. Run after the message's own rules. */
export function admit(c: Contract, message: ContractMessage, input: unknown): Rejection | null {
  const caller = callerOf(input);
  if (caller === null) return null;
  const party = isParty(c, caller);
  const checks: Check[] = party ? [] : [headroom(c)];
  if (message === 'quote') checks.push(quoteLimits(c, input as QuoteInput));
  if (LOCKING.includes(message) && !party) checks.push(lockLimits(c, caller));
  if (message === 'accept') checks.push(oneAcceptAtATime(c, caller));
  return firstBroken(...checks);
}

/** Counts what an admitted message spent once it ended: a failed lock, an accept no longer pending. */
export function settleSpending(c: Contract, caller: Address | null, refused: Rejection | null): void {
  if (caller === null || refused?.type !== FailureType.InsufficientFunds) return;
  c.spent.lockFailed(caller, isParty(c, caller));
}

/** True when a refusal by `caller` may still be written to the event log. */
export function mayLogRejection(c: Contract, caller: string): boolean {
  return c.spent.logRejection(caller, BUDGET.loggedRejectionsPerAgent, BUDGET.loggedRejectionsPerContract);
}
