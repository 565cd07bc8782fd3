// The operator's desk on a contract (needs-operator.ts): the step waiting for the operator, the
// operator's pending answer, and the main loop's finished steps. Changed only by its named mutators.
import type { StuckStep } from '../operator-messages';
import type { OperatorAction } from '../rules/events';
import type { Pulse } from './phase';

export class OperatorDesk {
  stuck: StuckStep | null = null;
  action: OperatorAction | null = null;
  /** The operator chose `release`: the main loop releases every hold next. */
  releasing = false;
  /** Steps the main loop finished (the operator's Update answers after the next one). */
  completed = 0;

  constructor(private readonly pulse: Pulse) {}

  /** A step waits for the operator (or no longer: null); wakes the loop. */
  flagStuck(stuck: StuckStep | null): void {
    this.stuck = stuck;
    this.pulse.wake();
  }

  /** The operator's answer to a stuck step; wakes the loop. */
  chose(action: OperatorAction): void {
    this.action = action;
    this.pulse.wake();
  }

  /** The main loop takes the operator's answer (a `release` is carried out next). */
  take(): OperatorAction | null {
    const { action } = this;
    this.action = null;
    this.releasing = this.releasing || action === 'release';
    return action;
  }

  /** The operator's release is posted. */
  released(): void {
    this.releasing = false;
  }

  /** A main-loop step finished (the operator's Update answers after the next one). */
  stepCompleted(): void {
    this.completed++;
  }
}
