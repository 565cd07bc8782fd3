// Event-stream slots: the store contract and one process's slots in memory (the SQLite default).
// The PostgreSQL slots (store/rate-limit/postgres.ts) are rows with an expiry that the open stream
// keeps pushing forward, so the slots of a crashed API process expire instead of leaking.
export interface StreamCaps {
  perCaller: number;
  total: number;
}

export interface StreamSlots {
  /** A slot for `owner`, or undefined when the owner or the service is at its cap. */
  acquire(owner: string, caps: StreamCaps): Promise<string | undefined>;
  /** The stream is still open (called every so often while it is). */
  heartbeat(slot: string): Promise<void>;
  release(slot: string): Promise<void>;
}

/** One process's slots (nothing to expire: they go with the process). */
export class MemoryStreamSlots implements StreamSlots {
  private readonly owners = new Map<string, string>();
  private next = 0;

  async acquire(owner: string, caps: StreamCaps): Promise<string | undefined> {
    const mine = [...this.owners.values()].filter((o) => o === owner).length;
    if (this.owners.size >= caps.total || mine >= caps.perCaller) return undefined;
    const slot = `s${++this.next}`;
    this.owners.set(slot, owner);
    return slot;
  }

  async heartbeat(): Promise<void> {}

  async release(slot: string): Promise<void> {
    this.owners.delete(slot);
  }
}
