// Caps on open event streams (SSE, api/routes/event-stream.ts). A stranger's stream (anyone not a
// party of the contract) is counted per client address, whatever key signed it, so minting keys does
// not multiply a host's streams, and in the service's total. A party's stream of its own contract (the
// Client, the Worker, a drawn Backup Agent) takes a reserved slot instead: a few per party and
// contract, outside the total, so strangers filling the service never shut a party out; so does an
// agent's stream of its own feed while it has money at stake (`atStake`: keys are free, a stake is not,
// so minted keys cannot multiply reserved slots). A slot is
// taken when a stream opens and given back when it ends; in PostgreSQL (store/rate-limit/postgres.ts) a slot is a row with an
// expiry that the open stream keeps pushing forward, so the slots of a crashed API process expire
// instead of leaking.
import type { Context } from 'hono';
import type { SSEStreamingApi } from 'hono/streaming';
import { RESERVED_OWNER_PREFIX, type StreamSlots } from '../../store/stream-caps';
import { clientAddress, tooManyRequests, type RateLimitSettings } from './rate-limit';

/** What a refused stream is told to wait: streams last minutes, so a few seconds is a fair retry. */
export const STREAM_RETRY_MS = 5_000;

export type { StreamCaps, StreamSlots } from '../../store/stream-caps';
export { MemoryStreamSlots } from '../../store/stream-caps';

export interface StreamLimits {
  settings: RateLimitSettings;
  streams: StreamSlots;
}

/** The reserved room of a party's stream of its contract. */
export function contractStreamRoom(contractId: string, agent: string): string {
  return `${contractId}:${agent.toLowerCase()}`;
}

/** The reserved room of an agent's stream of its own feed. */
export function feedStreamRoom(agent: string): string {
  return `agent-feed:${agent.toLowerCase()}`;
}

/**
 * A slot for this request's stream, or undefined at a cap: in its reserved `room` when it has one
 * (`contractStreamRoom`, `feedStreamRoom`: `streamsPerParty` there, outside the total), else one
 * counted for its client address.
 */
export function openStreamSlot(
  limits: StreamLimits,
  c: Context,
  room: string | undefined,
): Promise<string | undefined> {
  const { streamsPerCaller, streamsTotal, streamsPerParty } = limits.settings;
  if (room !== undefined) {
    return limits.streams.acquire(`${RESERVED_OWNER_PREFIX}${room}`, { perCaller: streamsPerParty });
  }
  return limits.streams.acquire(`address:${clientAddress(c)}`, {
    perCaller: streamsPerCaller,
    total: streamsTotal,
  });
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
