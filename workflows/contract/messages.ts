// The contract's messages. Each is registered twice over one handler (docs/api.md): as an Update whose
// synchronous validator refuses at once (the API's path), and as a Signal that runs the same checks
// and, when the rules refuse it, records a `contract.message-rejected` event and changes nothing.
// Each phase declares its own messages (match/, work/, review/, panel/, appeal/ messages.ts). Handlers
// that end the contract leave the money to the main loop (a Decision) and wait until it is done, so
// the Update's answer is the view after the change.
import { ApplicationFailure, condition, setHandler, TemporalFailure } from '@temporalio/workflow';
import {
  contractQuery,
  createdUpdate,
  eventsQuery,
  FailureType,
  seatsFreedSignal,
  snapshotQuery,
  votesQuery,
} from '../definitions';
import { messageRejectedEvent } from '../rules/event-constructors';
import type { ContractMessage } from '../rules/message-names';
import { appeal } from './appeal/messages';
import { admit, mayLogRejection, settleSpending } from './budget';
import { callerOf } from './checks';
import { delegationOf } from './delegation';
import { accept, award, cancel, decline, quote } from './match/messages';
import type { MessageSpec } from './message-spec';
import { vote } from './panel/messages';
import { votesResult, writeReadModel } from './read-model';
import { receipt } from './receipt';
import { reject, rejection, rejectionOf, type Rejection } from './rejection';
import { approve, dispute, requestChanges } from './review/messages';
import type { Contract } from './state';
import { contractView } from './view';
import { deliver, withdraw } from './work/messages';

function recordRejection(c: Contract, message: ContractMessage, input: unknown, r: Rejection): void {
  const actor = callerOf(input) ?? 'system';
  if (!mayLogRejection(c, actor)) return;
  c.record(
    messageRejectedEvent(c.eventContext(actor, delegationOf(input)), {
      message,
      code: r.code,
      ...(r.field === undefined ? {} : { field: r.field }),
    }),
  );
}

/** The message's own rules, then the run's budget (budget.ts): the Update validator and the Signal's check. */
function admission<I>(c: Contract, spec: MessageSpec<I>, input: unknown): Rejection | null {
  return spec.validate(c, input) ?? admit(c, spec.message, input);
}

/** A refusal after acceptance is counted (budget.ts) and recorded; null when `error` is no refusal. */
function refusedAfterAdmission<I>(
  c: Contract,
  spec: MessageSpec<I>,
  input: I,
  error: unknown,
): Rejection | null {
  const refused = rejectionOf(error);
  settleSpending(c, callerOf(input), refused);
  if (refused !== null) recordRejection(c, spec.message, input, refused);
  return refused;
}

async function signalled<I>(c: Contract, spec: MessageSpec<I>, input: I): Promise<void> {
  const broken = admission(c, spec, input);
  if (broken !== null) return recordRejection(c, spec.message, input, broken);
  try {
    await spec.run(c, input);
  } catch (error) {
    if (refusedAfterAdmission(c, spec, input, error) !== null) return;
    // A Signal has no caller to answer: a step that failed for good is logged, never fails the run
    // (which would leave every hold of the contract held).
    if (!(error instanceof TemporalFailure)) throw error;
    recordRejection(c, spec.message, input, rejection(FailureType.Conflict, 'step_failed', error.message));
  }
}

// The handlers keep the shape (the awaits) they had before the budget: the order in which an Update
// completes and the main loop wakes within one activation is part of the saved histories.
function register<I>(c: Contract, spec: MessageSpec<I>): void {
  setHandler(
    spec.update,
    async (input: I) => {
      c.spent.updates++;
      try {
        await spec.run(c, input);
      } catch (error) {
        refusedAfterAdmission(c, spec, input, error);
        await writeReadModel(c);
        throw error;
      }
      // Before the answer: a read right after it sees the change.
      await writeReadModel(c);
      return receipt(c, spec.message, input);
    },
    {
      validator: (input: I) => {
        const broken = admission(c, spec, input);
        if (broken !== null) reject(broken);
      },
    },
  );
  setHandler(spec.signal, async (input: I) => {
    await signalled(c, spec, input);
    await writeReadModel(c);
  });
}

/** The Update the API sends with the start: the view once the escrow is held, or why it is not. */
function registerCreated(c: Contract): void {
  setHandler(createdUpdate, async () => {
    await condition(() => c.escrow.state !== 'pending');
    if (c.escrow.state === 'refused') {
      throw ApplicationFailure.nonRetryable(c.escrow.message, c.escrow.failureType, {
        code: c.escrow.reason,
      });
    }
    await writeReadModel(c);
    return contractView(c);
  });
}

export function registerHandlers(c: Contract): void {
  registerCreated(c);
  register(c, accept);
  register(c, decline);
  register(c, cancel);
  register(c, withdraw);
  register(c, deliver);
  register(c, approve);
  register(c, dispute);
  register(c, requestChanges);
  register(c, vote);
  register(c, appeal);
  register(c, quote);
  register(c, award);
  setHandler(seatsFreedSignal, () => c.seatsMayBeFree());
  setHandler(contractQuery, () => contractView(c));
  setHandler(votesQuery, () => votesResult(c));
  setHandler(eventsQuery, () => [...c.events]);
  setHandler(snapshotQuery, () => ({
    view: contractView(c),
    events: [...c.events],
    ballotsCast: c.panel.ballots.map((b) => b.voter),
  }));
}
