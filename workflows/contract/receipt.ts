// The answer of every contract Update (definitions MessageReceipt). Temporal keeps every Update's
// answer in the history, so an answer must not grow with the quotes or the task description. The
// messages a run can take only a bounded number of times (all but a quote,
// which anyone may send up to the caps, and an award, whose view would carry every quote) also
// answer the view after the change, without the fields that cannot change any more once bidding is
// closed (docs/security.md §12): the API then needs no query to answer the caller.
import {
  UNANSWERED_VIEW_FIELDS,
  type AnsweredView,
  type ContractView,
  type MessageReceipt,
} from '../definitions';
import type { ContractMessage } from '../rules/message-names';
import { toWire } from '../rules/money';
import { callerOf } from './checks';
import type { Contract } from './state';
import { contractView } from './view';

/** Messages without the view in their answer: unbounded in number (quote), or answered before bidding closes (award). */
const RECEIPT_ONLY: readonly ContractMessage[] = ['quote', 'award'];

export function receipt(c: Contract, message: ContractMessage, input: unknown): MessageReceipt {
  const caller = callerOf(input);
  const { worker, stake, quotes } = c.match;
  const ownQuote = message === 'quote' ? quotes.find((q) => q.bidder === caller) : undefined;
  return {
    contractId: c.contractId,
    status: c.status,
    revision: c.revision,
    worker,
    workerStake: stake === null ? null : toWire(stake.amount),
    backupAgents: c.panel.current?.members ?? [],
    quoteId: ownQuote?.quoteId ?? null,
    ...(RECEIPT_ONLY.includes(message) ? {} : { view: answeredView(contractView(c)) }),
  };
}

export function answeredView(view: ContractView): AnsweredView {
  const answered = { ...view } as Record<string, unknown>;
  for (const field of UNANSWERED_VIEW_FIELDS) answered[field] = null;
  return answered as AnsweredView;
}
