// The Temporal budget (docs/security.md "Temporal budget"): a refusal that stays true (rules/budget
// LASTING_REFUSALS, e.g. a bidder past its quote cap) is remembered per contract, message and caller,
// so a flood of repeats is answered here without a round trip to the workflow. Per API process and
// bounded: the oldest entries go first; a forgotten one is simply asked again.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { RejectionDetails } from '../../workflows/definitions';
import { LASTING_REFUSALS } from '../../workflows/rules/budget';

const DEFAULT_CAPACITY = 10_000;

export class RefusalMemo {
  private readonly refusals = new Map<string, unknown>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Throws the remembered refusal of this message by this caller, if any. */
  check(contractId: string, message: string, caller: string | undefined): void {
    if (caller === undefined) return;
    const refusal = this.refusals.get(`${contractId}:${message}:${caller}`);
    if (refusal !== undefined) throw refusal;
  }

  /** Remembers `error` when it is a lasting refusal. */
  note(contractId: string, message: string, caller: string | undefined, error: unknown): void {
    if (caller === undefined || !isLasting(error)) return;
    if (this.refusals.size >= this.capacity) this.refusals.delete(this.refusals.keys().next().value!);
    this.refusals.set(`${contractId}:${message}:${caller}`, error);
  }
}

function isLasting(error: unknown): boolean {
  if (!(error instanceof WorkflowUpdateFailedError) || !(error.cause instanceof ApplicationFailure))
    return false;
  const code = (error.cause.details?.[0] as Partial<RejectionDetails> | undefined)?.code;
  return code !== undefined && LASTING_REFUSALS.includes(code);
}
