// Auction bidding (docs/protocol.md §5): who may quote or award, when, with what; and recording a quote. The
// ranking and the budget rule are rules/auction's. A bidder holds one live quote: a new quote from it
// replaces the earlier one (a new quote ID, a new arrival time), so the rules' one-quote-per-bidder
// check runs against the other bidders' quotes only.
import { delegationOf } from '../delegation';
import { FailureType, type AwardInput, type QuoteInput } from '../../definitions';
import {
  checkQuotePrice,
  quoteBodySchema,
  quoteByClient,
  type Quote,
  type QuoteRejection,
  type QuoteRejectionCode,
} from '../../rules/auction';
import { isAuction } from '../../rules/contract-kinds';
import { quoteReceivedEvent } from '../../rules/event-constructors';
import { rejection, type Rejection } from '../rejection';
import type { HeldFunds } from '../phase';
import type { Contract } from '../state';
import type { AuctionQuote } from './state';
import {
  before,
  callerIs,
  callerIsAddress,
  callerOf,
  exists,
  firstBroken,
  statusIs,
  type Check,
} from '../checks';

const auctionOnly =
  (c: Contract): Check =>
  () =>
    isAuction(c.terms)
      ? null
      : rejection(FailureType.Conflict, 'not_an_auction', 'only an auction takes quotes and awards');

/** A close of bidding is matching (an award or the Match Deadline): nothing more can be bid or awarded. */
const biddingOpen =
  (c: Contract): Check =>
  () =>
    c.match.biddingClosed
      ? rejection(FailureType.Conflict, 'bidding_closed', 'bidding is closing: a match is being made')
      : null;

const QUOTE_REJECTIONS: { readonly [C in QuoteRejectionCode]: [FailureType, string, string?] } = {
  own_contract: [FailureType.Forbidden, 'client_cannot_quote'],
  // checkQuote's deadline rule; the validator reaches the same end with its shared deadline check.
  bidding_closed: [FailureType.Conflict, 'late'],
  over_budget: [FailureType.BadInput, 'over_budget', 'price'],
  // Unreachable: a bidder's earlier quote is left out of the check, because the new one replaces it.
  already_quoted: [FailureType.Conflict, 'already_quoted'],
};

function quoteRejection(broken: QuoteRejection): Rejection | null {
  if (broken === null) return null;
  const [type, code, field] = QUOTE_REJECTIONS[broken.code];
  return rejection(type, code, broken.message, field);
}

type QuoteFields = { price: bigint; confidence?: number; message?: string };

/** The quote's own fields (rules/auction quoteBodySchema), or the first broken one. */
function parseQuoteFields(input: unknown): { ok: true; fields: QuoteFields } | { ok: false; r: Rejection } {
  const { price, confidence, message } = (input ?? {}) as Partial<QuoteInput>;
  const body = {
    price,
    ...(confidence === undefined ? {} : { confidence }),
    ...(message === undefined ? {} : { message }),
  };
  const parsed = quoteBodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'price');
    return {
      ok: false,
      r: rejection(FailureType.BadInput, 'invalid_input', `${field}: ${issue.message}`, field),
    };
  }
  return { ok: true, fields: parsed.data };
}

/** Any agent but the Client, on an auction still `created`, before the Match Deadline, within the budget cap. */
export function validateQuote(c: Contract, input: unknown): Rejection | null {
  const bidder = callerOf(input);
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    auctionOnly(c),
    () => quoteRejection(quoteByClient({ bidder: bidder!, client: c.terms.client })),
    statusIs(c, 'created'),
    biddingOpen(c),
    before(c.terms.deadlines.match, 'match'),
    () => {
      const parsed = parseQuoteFields(input);
      if (!parsed.ok) return parsed.r;
      return quoteRejection(
        checkQuotePrice({
          bidder: bidder!,
          price: parsed.fields.price,
          budget: c.terms.amount,
          quotes: c.match.quotes.filter((q) => q.bidder !== bidder),
        }),
      );
    },
  );
}

/**
 * A checked quote as it would stand if taken now: ranked by the match order against the standing
 * quotes (it arrives after every one of them, so a tie in price and confidence goes to them).
 */
export function candidateQuote(c: Contract, input: QuoteInput): Quote {
  const parsed = parseQuoteFields(input);
  if (!parsed.ok) throw new RangeError(`a candidate quote after a failed check: ${parsed.r.message}`);
  return {
    quoteId: '',
    bidder: callerOf(input)!,
    price: parsed.fields.price,
    confidence: parsed.fields.confidence ?? null,
    submittedAt: Date.now(),
    sequence: c.match.quoteSequence + 1,
  };
}

/** A checked quote's price. */
export function quotedPrice(input: QuoteInput): bigint {
  const parsed = parseQuoteFields(input);
  if (!parsed.ok) throw new RangeError(`a quote's price after a failed check: ${parsed.r.message}`);
  return parsed.fields.price;
}

/**
 * Counts an admitted quote against the caps before it waits for its bond (so quotes in flight
 * together cannot pass the caps together); its sequence number, whether or not its bond is held.
 */
export function admitQuote(c: Contract, input: QuoteInput): number {
  c.spent.quoted(callerOf(input)!);
  return c.match.nextQuoteSequence();
}

/**
 * Records a checked quote with its held bid bond; the bidder's earlier quote, if any, is replaced, and
 * so is `displaced` (the worst quote a better newcomer replaces at a full cap). Never waits.
 */
export function recordQuote(
  c: Contract,
  input: QuoteInput,
  bond: HeldFunds,
  sequence: number,
  displaced: AuctionQuote | null,
): AuctionQuote {
  const bidder = callerOf(input)!;
  const parsed = parseQuoteFields(input);
  if (!parsed.ok) throw new RangeError(`recordQuote after a failed check: ${parsed.r.message}`);
  const { price, confidence, message } = parsed.fields;
  const quote: AuctionQuote = {
    quoteId: `q-${sequence}`,
    bidder,
    price,
    confidence: confidence ?? null,
    message: message ?? null,
    submittedAt: Date.now(),
    sequence,
    bond,
  };
  c.match.quoted(quote, displaced);
  // Sealed bids: the log says who bid and the quote's ID, never its price or confidence.
  c.record(quoteReceivedEvent(c.eventContext(bidder, delegationOf(input)), { quoteId: quote.quoteId }));
  return quote;
}

/** The Client, on an auction still `created` and open, before the Match Deadline; a live quote if it names one. */
export function validateAward(c: Contract, input: unknown): Rejection | null {
  const quoteId = (input as Partial<AwardInput> | null | undefined)?.quoteId;
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    auctionOnly(c),
    callerIs(c, input, 'client'),
    statusIs(c, 'created'),
    biddingOpen(c),
    before(c.terms.deadlines.match, 'match'),
    () => {
      if (quoteId === undefined) {
        return c.match.quotes.length > 0
          ? null
          : rejection(FailureType.Conflict, 'no_quotes', 'no quote to award: bidding stays open');
      }
      if (typeof quoteId !== 'string' || quoteId === '') {
        return rejection(
          FailureType.BadInput,
          'invalid_input',
          'quoteId must be a non-empty string',
          'quoteId',
        );
      }
      return c.match.quotes.some((q) => q.quoteId === quoteId)
        ? null
        : rejection(
            FailureType.NotFound,
            'unknown_quote',
            `no live quote ${quoteId} on this contract`,
            'quoteId',
          );
    },
  );
}
