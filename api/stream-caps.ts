// Caps on open event streams (SSE, api/routes/event-stream.ts): so many per caller (the signed
// agent, else the client address) and so many for the whole service. A slot is taken when a stream
// opens and given back when it ends; in PostgreSQL (store/rate-limit/postgres.ts) a slot is a row with an
// expiry that the open stream keeps pushing forward, so the slots of a crashed API process expire
// instead of leaking.
import type { Context } from 'hono';
import type { SSEStreamingApi } from 'hono/streaming';
import type { StreamSlots } from '../store/stream-caps';
import { clientAddress, tooManyRequests, type RateLimitSettings } from './rate-limit';

/** What a refused stream is told to wait: streams last minutes, so a few seconds is a fair retry. */
export const STREAM_RETRY_MS = 5_000;

export type { StreamCaps, StreamSlots } from '../store/stream-caps';
export { MemoryStreamSlots } from '../store/stream-caps';

/** A slot for this request's caller (the signed agent, else its address), or undefined at a cap. */
export interface StreamLimits {
  settings: RateLimitSettings;
  streams: StreamSlots;
}

export function openStreamSlot(limits: StreamLimits, c: Context): Promise<string | undefined> {
  const caller = c.get('caller') as string | undefined;
  const owner = caller === undefined ? `address:${clientAddress(c)}` : `agent:${caller.toLowerCase()}`;
  const { streamsPerCaller, streamsTotal } = limits.settings;
  return limits.streams.acquire(owner, { perCaller: streamsPerCaller, total: streamsTotal });
}

/** The 429 of a stream refused at a cap. */
export function tooManyStreams(c: Context): Response {
  return tooManyRequests(c, STREAM_RETRY_MS, 'too many open event streams; close one or retry later');
}

/**
 * Gives the slot back when the stream closes: hono's streamSSE closes it however the stream ends
 * (done, client gone, error). A failed release is left to the slot's expiry.
 */
export function releaseOnClose(slots: StreamSlots, slot: string, stream: SSEStreamingApi): void {
  const close = stream.close.bind(stream);
  stream.close = async () => {
    try {
      await close();
    } finally {
      await slots.release(slot).catch(() => undefined);
    }
  };
}
