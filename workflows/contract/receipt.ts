// The small answer of every contract Update (definitions MessageReceipt): its size does not grow with
// the quotes or the task description, because Temporal keeps every Update's answer in the history.
import type { MessageReceipt } from '../definitions';
import type { ContractMessage } from '../rules/message-names';
import { toWire } from '../rules/money';
import type { Contract } from './state';
import { callerOf } from './validators';

export function receipt(c: Contract, message: ContractMessage, input: unknown): MessageReceipt {
  const caller = callerOf(input);
  const ownQuote = message === 'quote' ? c.quotes.find((q) => q.bidder === caller) : undefined;
  return {
    contractId: c.contractId,
    status: c.status,
    revision: c.revision,
    worker: c.worker,
    workerStake: c.stake === null ? null : toWire(c.stake.amount),
    backupAgents: c.panel?.members ?? [],
    quoteId: ownQuote?.quoteId ?? null,
  };
}
