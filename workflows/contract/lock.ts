// A first-come-first-served lock for workflow handlers that await (e.g. a stake lock in an open
// tender): only the holder runs; the others wait in arrival order.
//
// `condition()` resolves every waiter whose predicate is true in one pass, before any of them runs,
// so a plain `!held` flag would let them all in; a queue of tickets admits exactly the head.
import { condition } from '@temporalio/workflow';

export class WorkflowLock {
  private readonly queue: number[] = [];
  private nextTicket = 0;
  private holder: number | null = null;

  async run<T>(work: () => Promise<T> | T): Promise<T> {
    const ticket = this.nextTicket++;
    this.queue.push(ticket);
    await condition(() => this.holder === null && this.queue[0] === ticket);
    this.queue.shift();
    this.holder = ticket;
    try {
      return await work();
    } finally {
      this.holder = null;
    }
  }
}
