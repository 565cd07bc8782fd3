// Auction quotes (docs/protocol.md §5): validation, ranking, the match order and the bidders left for the BA pool.
import { z } from 'zod';
import type { Address } from './address';
import { positiveAmountSchema } from './money';

export const MAX_QUOTE_MESSAGE_LENGTH = 2000;

export const quoteBodySchema = z
  .object({
    price: positiveAmountSchema,
    confidence: z.number().min(0, 'must be in [0, 1]').max(1, 'must be in [0, 1]').optional(),
    message: z.string().max(MAX_QUOTE_MESSAGE_LENGTH).optional(),
  })
  .strict();

export interface Quote {
  quoteId: string;
  bidder: Address;
  price: bigint;
  confidence?: number | null;
  /** Workflow time the quote was accepted. */
  submittedAt: number;
  /** Arrival order within the contract: breaks ties between quotes accepted at the same instant. */
  sequence: number;
}

export type QuoteRejectionCode = 'own_contract' | 'over_budget' | 'bidding_closed' | 'already_quoted';

export interface QuoteCheck {
  bidder: Address;
  client: Address;
  price: bigint;
  budget: bigint;
  now: number;
  matchDeadline: number;
  quotes: readonly Pick<Quote, 'bidder'>[];
}

export type QuoteRejection = { code: QuoteRejectionCode; message: string } | null;

/** The Client never quotes on its own contract. */
export function quoteByClient(q: Pick<QuoteCheck, 'bidder' | 'client'>): QuoteRejection {
  return q.bidder === q.client
    ? { code: 'own_contract', message: 'the Client cannot quote on its own contract' }
    : null;
}

/** The quote itself: within the budget cap, and the bidder's only one. */
export function checkQuotePrice(
  q: Pick<QuoteCheck, 'bidder' | 'price' | 'budget' | 'quotes'>,
): QuoteRejection {
  if (q.price > q.budget) {
    return { code: 'over_budget', message: `price ${q.price} exceeds the budget cap ${q.budget}` };
  }
  if (q.quotes.some((x) => x.bidder === q.bidder)) {
    return { code: 'already_quoted', message: `${q.bidder} has already quoted on this contract` };
  }
  return null;
}

/**
 * Null when the quote is accepted; each bidder quotes once, before the Match Deadline, within budget.
 * The workflow's validator (workflows/contract/bidding.ts) applies the parts in its own order,
 * between its state checks, with its shared deadline check.
 */
export function checkQuote(q: QuoteCheck): QuoteRejection {
  const closed: QuoteRejection =
    q.now >= q.matchDeadline
      ? { code: 'bidding_closed', message: 'bidding closed at the Match Deadline' }
      : null;
  return quoteByClient(q) ?? closed ?? checkQuotePrice(q);
}

const hasConfidence = (q: Quote): q is Quote & { confidence: number } =>
  typeof q.confidence === 'number' && Number.isFinite(q.confidence);

/** Lowest price; ties → higher confidence (a missing one ranks below any given); then earliest. */
export function compareQuotes(a: Quote, b: Quote): number {
  if (a.price !== b.price) return a.price < b.price ? -1 : 1;
  if (hasConfidence(a) !== hasConfidence(b)) return hasConfidence(a) ? -1 : 1;
  if (hasConfidence(a) && hasConfidence(b) && a.confidence !== b.confidence)
    return b.confidence - a.confidence;
  if (a.submittedAt !== b.submittedAt) return a.submittedAt - b.submittedAt;
  return a.sequence - b.sequence;
}

export function rankQuotes<Q extends Quote>(quotes: readonly Q[]): Q[] {
  return [...quotes].sort(compareQuotes);
}

export function bestQuote(quotes: readonly Quote[]): Quote | undefined {
  return rankQuotes(quotes)[0];
}

/** The worst standing quote by the match order: the one a better newcomer replaces at a full cap. */
export function worstQuote<Q extends Quote>(quotes: readonly Q[]): Q | undefined {
  return rankQuotes(quotes).at(-1);
}

/**
 * At a full cap, the standing quote a newcomer's `candidate` replaces: the worst, when the candidate
 * ranks strictly above it by the match order; null when it does not (a cap never refuses a better quote,
 * and refuses every other one). The candidate arrives last, so a tie in price and confidence loses.
 */
export function displacedQuote<Q extends Quote>(quotes: readonly Q[], candidate: Quote): Q | null {
  const worst = worstQuote(quotes);
  return worst !== undefined && compareQuotes(candidate, worst) < 0 ? worst : null;
}

/** True when `candidate` would rank above every standing quote (or there is none). */
export function beatsBest(quotes: readonly Quote[], candidate: Quote): boolean {
  const best = bestQuote(quotes);
  return best === undefined || compareQuotes(candidate, best) < 0;
}

/**
 * The order in which a match is attempted when bidding closes: the best quote, then, if its bidder's
 * stake lock fails, the next best, and so on. Each bidder appears once, with its best quote.
 */
export function matchOrder<Q extends Quote>(quotes: readonly Q[]): Q[] {
  const seen = new Set<Address>();
  return rankQuotes(quotes).filter((q) => !seen.has(q.bidder) && seen.add(q.bidder));
}

/** The bidders other than the matched Worker, sorted: the BA pool once filtered by eligibility. */
export function remainingBidders(quotes: readonly Pick<Quote, 'bidder'>[], worker: Address): Address[] {
  return [...new Set(quotes.map((q) => q.bidder).filter((b) => b !== worker))].sort();
}
