// What the main loop must carry out next (lifecycle.ts), set by a message handler or a deadline and
// carried out by settlement/closing.ts: a cancellation, or a resolution on the verdicts that decided.
import type { Delegation } from '../definitions';
import type { Actor, ResolutionSource } from '../rules/events';
import type { CancellationReason } from '../rules/status';
import type { Verdict } from '../rules/verdicts';

/** What the main loop must carry out next; set by a message handler or a deadline. */
export type Decision =
  | { kind: 'cancel'; reason: CancellationReason; actor: Actor; delegation?: Delegation | null }
  | {
      kind: 'resolve';
      source: ResolutionSource;
      criteriaMet: Verdict[];
      actor: Actor;
      delegation?: Delegation | null;
    };
