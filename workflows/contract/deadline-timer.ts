// One timer per deadline: a wait whose next deadline is the one the
// running timer already counts down to keeps that timer, so a message that changes nothing about the
// deadline (a vote, a quote, a refused call) costs no timer cancelled and started again. The timer is
// cancelled only when the next deadline moves; one still running when the contract ends is dropped
// with the workflow, without an event.
import { CancellationScope, condition, isCancellation, sleep } from '@temporalio/workflow';
import type { NextDeadline } from '../rules/deadlines';

interface Running {
  kind: NextDeadline['kind'];
  at: number;
  fired: boolean;
  scope: CancellationScope;
}

export class DeadlineTimer {
  private running: Running | null = null;

  /** Waits for `changed` or the deadline; true when `changed` held first. A passed deadline does not wait. */
  async until(changed: () => boolean, next: NextDeadline | null): Promise<boolean> {
    if (next === null || this.running?.kind !== next.kind || this.running.at !== next.at) this.cancel();
    if (next === null) {
      await condition(changed);
      return true;
    }
    const remaining = next.at - Date.now();
    if (remaining <= 0) return changed();
    const timer = (this.running ??= this.start(next, remaining));
    await condition(() => changed() || timer.fired);
    if (changed()) return true;
    this.running = null;
    return false;
  }

  private start(next: NextDeadline, ms: number): Running {
    const scope = new CancellationScope();
    const running: Running = { kind: next.kind, at: next.at, fired: false, scope };
    scope
      .run(() => sleep(ms, { summary: `${next.kind} deadline` }))
      .then(
        () => {
          running.fired = true;
        },
        (error: unknown) => {
          if (!isCancellation(error)) throw error;
        },
      );
    return running;
  }

  private cancel(): void {
    if (this.running !== null && !this.running.fired) this.running.scope.cancel();
    this.running = null;
  }
}
