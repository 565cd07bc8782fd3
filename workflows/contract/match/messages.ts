// The match phase's messages (docs/protocol.md §5): accept (open tender or direct award), decline,
// cancel, and an auction's quote and award. Everything that races for the match runs under its lock.
import {
  acceptSignal,
  acceptUpdate,
  awardSignal,
  awardUpdate,
  cancelSignal,
  cancelUpdate,
  declineSignal,
  declineUpdate,
  quoteSignal,
  quoteUpdate,
  type AwardInput,
  type QuoteInput,
} from '../../definitions';
import { contractMatchedEvent } from '../../rules/event-constructors';
import { workerStakeFor } from '../../rules/holds';
import type { CancellationReason } from '../../rules/status';
import { bidderLimit, placeAtCap } from '../budget';
import { callerOf } from '../checks';
import { delegationOf } from '../delegation';
import { recheck, untilClosed, type MessageSpec } from '../message-spec';
import { lockOrRefuse } from '../bonds';
import { reject } from '../rejection';
import { awardContract } from './auction-match';
import { holdBidBond } from './bid-bond';
import {
  admitQuote,
  candidateQuote,
  quotedPrice,
  recordQuote,
  validateAward,
  validateQuote,
} from './bidding';
import { validateAccept, validateCancel, validateDecline } from './validators';
import { lockWorkerStake } from './worker-stake';

export const accept: MessageSpec<{ caller: string }> = {
  message: 'accept',
  signal: acceptSignal,
  update: acceptUpdate,
  validate: validateAccept,
  // Open tender: the first accept whose stake lock succeeds wins. The match lock serializes callers,
  // so a loser is refused before anything of it is locked, and a failed lock frees the way for the next.
  // An agent has one accept waiting at a time (budget.ts), so a flood cannot fill Temporal's in-flight slots.
  run: (c, input) => {
    const worker = callerOf(input)!;
    c.spent.acceptsPending.push(worker);
    return c.match.lock.run(async () => {
      try {
        recheck(c, input, validateAccept);
        const amount = c.match.stakeAmount();
        const { holdId } = await lockOrRefuse('Worker Stake', amount, () =>
          lockWorkerStake(c, worker, amount, delegationOf(input)),
        );
        c.match.matched(worker, { amount, holdId });
        c.record(
          contractMatchedEvent(c.eventContext(worker, delegationOf(input)), {
            worker,
            via: 'accept',
            price: c.terms.amount,
            workerStake: amount,
          }),
        );
      } finally {
        c.spent.acceptsPending.splice(c.spent.acceptsPending.indexOf(worker), 1);
      }
    });
  },
};

/** Decline and cancel end a contract still in `created`, under the match lock: an accept already locking wins. */
function endBeforeMatch(
  spec: Omit<MessageSpec<{ caller: string }>, 'run'>,
  reason: CancellationReason,
): MessageSpec<{ caller: string }> {
  return {
    ...spec,
    run: async (c, input) => {
      await c.match.lock.run(() => {
        recheck(c, input, spec.validate);
        c.decide({ kind: 'cancel', reason, actor: callerOf(input)!, delegation: delegationOf(input) });
      });
      await untilClosed(c);
    },
  };
}

export const decline = endBeforeMatch(
  { message: 'decline', signal: declineSignal, update: declineUpdate, validate: validateDecline },
  'unmatched',
);

export const cancel = endBeforeMatch(
  { message: 'cancel', signal: cancelSignal, update: cancelUpdate, validate: validateCancel },
  'by-client',
);

/**
 * An auction bid (bidding.ts): its bid bond is held (bid-bond.ts), then it is recorded; the bidder's
 * earlier quote is replaced and its bond moved. Under the match lock: no close of bidding reads the
 * quotes while a bond moves, and a quote queued behind a close is refused by the recheck.
 */
export const quote: MessageSpec<QuoteInput> = {
  message: 'quote',
  signal: quoteSignal,
  update: quoteUpdate,
  validate: validateQuote,
  run: (c, input) => {
    const sequence = admitQuote(c, input);
    return c.match.lock.run(async () => {
      recheck(c, input, validateQuote);
      // Quotes taken while this one waited for the lock may have filled the cap or raised the worst.
      const place = placeAtCap(c, candidateQuote(c, input));
      if (place.kind === 'full') reject(bidderLimit());
      const displaced = place.kind === 'replaces' ? place.quote : null;
      const bidder = callerOf(input)!;
      const amount = workerStakeFor(quotedPrice(input), c.params);
      const bond = await holdBidBond(c, bidder, amount, displaced, delegationOf(input));
      recordQuote(c, input, bond, sequence, displaced);
    });
  },
};

/** The Client closes an auction's bidding early (auction-match.ts): its pick, or the best quote. */
export const award: MessageSpec<AwardInput> = {
  message: 'award',
  signal: awardSignal,
  update: awardUpdate,
  validate: validateAward,
  run: awardContract,
};
