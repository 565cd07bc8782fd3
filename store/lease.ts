// Leases that follow their holder. A row a process holds in a table every API shares (an Idempotency-Key
// reserved for a request in flight, an open event stream's slot) names the process and when it was last
// renewed. One heartbeat per process renews every row it holds in one statement per table, so a live
// holder's rows never lapse however long its requests run, and a dead holder's rows lapse within `leaseMs`
// (seconds, not minutes). On PostgreSQL a process that dies frees them sooner still, at once: its presence
// lock goes with its connection (postgres/presence.ts). A graceful stop gives them all back at once.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

export interface LeaseSettings {
  /** A row not renewed for this long is taken to belong to a dead holder: others may take it over. */
  leaseMs: number;
  /** How often the holder renews; well under `leaseMs`, so a beat or two delayed lapses nothing. */
  renewEveryMs: number;
}

/**
 * 5 s, renewed every second: four beats in a row must fail or wait before a live holder's row lapses, and
 * the keys of a holder whose death presence cannot see (a host gone without closing its connections; a
 * SQLite process) free 4–5 s after it. A shorter lease takes a key from a live holder whose heartbeat
 * stalls (event loop or database) for that long; docs/scale.md weighs the two.
 */
export const DEFAULT_LEASE: LeaseSettings = { leaseMs: 5_000, renewEveryMs: 1_000 };

/** The rows of one table that holders hold under leases. */
export interface LeasedRows {
  /** Marks every row `holder` still holds as renewed at `now`. */
  renew(holder: string, now: number): Promise<void>;
  /** Gives back every row `holder` still holds; resolves how many. */
  releaseAll(holder: string): Promise<number>;
}

/** A name no other process (here or on another host) has: the holder of this process's leases. */
export function newHolderId(): string {
  return `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
}

export interface HolderHeartbeatOptions {
  holder: string;
  rows: LeasedRows[];
  settings?: LeaseSettings;
  now?: () => number;
  /** Where a failed or late beat is reported (default console.warn). */
  warn?: (message: string) => void;
}

/** Renews a holder's rows every `renewEveryMs` until stopped; `stop()` gives them all back. */
export class HolderHeartbeat {
  readonly holder: string;
  readonly settings: LeaseSettings;
  private readonly rows: LeasedRows[];
  private readonly now: () => number;
  private readonly warn: (message: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private lastRenewed: number;

  constructor(options: HolderHeartbeatOptions) {
    this.holder = options.holder;
    this.rows = options.rows;
    this.settings = options.settings ?? DEFAULT_LEASE;
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? ((m) => console.warn(m));
    this.lastRenewed = this.now();
  }

  start(): this {
    if (this.timer !== undefined) return this;
    this.lastRenewed = this.now();
    // Unref'd: a heartbeat alone never keeps a process alive.
    this.timer = setInterval(() => void this.beat(), this.settings.renewEveryMs).unref();
    return this;
  }

  /** One renewal of every table; a beat still running is not overlapped, and a failure waits for the next. */
  beat(): Promise<void> {
    this.beating ??= this.renewAll().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  private async renewAll(): Promise<void> {
    const now = this.now();
    try {
      for (const rows of this.rows) await rows.renew(this.holder, now);
    } catch (error) {
      this.warn(`lease heartbeat of ${this.holder} failed: ${(error as Error).message}`);
      return;
    }
    const gap = now - this.lastRenewed;
    if (gap > this.settings.leaseMs) {
      this.warn(
        `lease heartbeat of ${this.holder} came ${gap} ms after the last one (lease ${this.settings.leaseMs} ms): ` +
          'another process may have taken over a key this one still ran',
      );
    }
    this.lastRenewed = now;
  }

  /** Stops beating (no more renewals from here on). */
  halt(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops beating and gives back every row still held; resolves how many. */
  async stop(): Promise<number> {
    this.halt();
    await this.beating;
    let released = 0;
    for (const rows of this.rows) released += await rows.releaseAll(this.holder);
    return released;
  }
}
