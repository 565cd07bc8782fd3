// Event-stream slots: the store contract and one process's slots in memory (the SQLite default).
// The PostgreSQL slots (store/rate-limit/postgres.ts) are rows with an expiry that the open stream
// keeps pushing forward, so the slots of a crashed API process expire instead of leaking.
export interface StreamCaps {
  perCaller: number;
  /** The service's total for strangers; absent for a reserved (party) slot, which it does not count. */
  total?: number;
}

/** Owners of reserved slots (a party's stream of its own contract) start with this; the total counts every other slot. */
export const RESERVED_OWNER_PREFIX = 'party:';
const isReserved = (owner: string) => owner.startsWith(RESERVED_OWNER_PREFIX);

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
    const owners = [...this.owners.values()];
    const mine = owners.filter((o) => o === owner).length;
    const strangers = owners.filter((o) => !isReserved(o)).length;
    if (mine >= caps.perCaller || (caps.total !== undefined && strangers >= caps.total)) return undefined;
    const slot = `s${++this.next}`;
    this.owners.set(slot, owner);
    return slot;
  }

  async heartbeat(): Promise<void> {}

  async release(slot: string): Promise<void> {
    this.owners.delete(slot);
  }
}
