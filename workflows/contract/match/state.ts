// The match phase's state (docs/protocol.md §5): who works the contract on which stake, and, for an
// auction, the quotes and their bid bonds until bidding closes. Changed only by its named mutators.
import type { Address } from '../../rules/address';
import type { Quote } from '../../rules/auction';
import type { ContractTerms } from '../../rules/contract-terms';
import { workerStakeFor } from '../../rules/holds';
import type { ProtocolParams } from '../../rules/params';
import { WorkflowLock } from '../lock';
import type { HeldFunds, Pulse } from '../phase';

/** The Worker Stake: always a hold (minWorkerStake floors it; an auction's is the winner's bid bond). */
export type StakeHold = HeldFunds;

/** An auction quote as the workflow keeps it: the rules' Quote plus the bidder's message to the Client. */
export interface AuctionQuote extends Quote {
  message: string | null;
  /** The bid bond held for this quote (bid-bond.ts): the Worker Stake for its price. */
  bond: HeldFunds;
}

type PricedTerms = Pick<ContractTerms, 'contractType' | 'amount' | 'worker'>;

export class MatchPhase {
  worker: Address | null;
  stake: StakeHold | null = null;
  /** Serializes the messages that race for the match (accept, decline, cancel, award) and the Match Deadline. */
  readonly lock = new WorkflowLock();
  /** Auctions (bidding.ts): the live quotes, one per bidder, in arrival order. */
  quotes: AuctionQuote[] = [];
  private bondSteps = 0;
  /** Auctions: quotes received so far (replacements included); numbers the quote IDs. */
  quoteSequence = 0;
  /** Auctions: true while a close of bidding is matching (quotes and a second award are refused). */
  biddingClosed = false;
  /** Auctions: the matched quote. */
  winningQuote: AuctionQuote | null = null;
  /** Auctions: the bidders other than the Worker, fixed at the match (no priority in the draw). */
  bidderPool: Address[] = [];

  constructor(
    private readonly pulse: Pulse,
    private readonly terms: PricedTerms,
    private readonly params: ProtocolParams,
  ) {
    this.worker = terms.worker;
  }

  /** The Worker is matched on its locked stake (an auction's also on its winning quote): `matched`. */
  matched(worker: Address, stake: StakeHold, auction?: { quote: AuctionQuote; bidderPool: Address[] }): void {
    if (auction !== undefined) {
      this.winningQuote = auction.quote;
      this.bidderPool = auction.bidderPool;
    }
    this.worker = worker;
    this.stake = stake;
    this.pulse.transition('matched');
  }

  /** With milestones: what stays of the stake for the later milestones, held again at a milestone's end. */
  stakeHeldAgain(stake: StakeHold): void {
    this.stake = stake;
  }

  /** Auctions: a close of bidding is matching (closed) or failed with the contract still open. */
  biddingClosing(closed: boolean): void {
    this.biddingClosed = closed;
  }

  /** Auctions: the next quote's sequence number. */
  nextQuoteSequence(): number {
    return ++this.quoteSequence;
  }

  /** Auctions: the next bid-bond batch's number (every attempt, a refused one included: ids never repeat). */
  nextBondStep(): number {
    return ++this.bondSteps;
  }

  /**
   * Auctions: a checked quote replaces the bidder's earlier one, and the quote it displaced at a full
   * cap (whose bond was released in the same ledger batch); publishes (the quote count).
   */
  quoted(quote: AuctionQuote, displaced: AuctionQuote | null = null): void {
    this.quotes = this.quotes.filter((q) => q.bidder !== quote.bidder && q !== displaced);
    this.quotes.push(quote);
    this.pulse.publish();
  }

  /** A fixed contract's price; an auction's winning price once matched. */
  get price(): bigint | null {
    return this.terms.contractType === 'fixed' ? this.terms.amount : (this.winningQuote?.price ?? null);
  }

  /** Worker Stake for the price (rules/holds). */
  stakeAmount(): bigint {
    const price = this.price;
    if (price === null) throw new RangeError('no price to stake on before the match');
    return workerStakeFor(price, this.params);
  }
}
