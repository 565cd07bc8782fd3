// Reading a contract's event stream (GET /contracts/:id/events/stream, Server-Sent Events) from Node
// or a browser with fetch: a small parser of the text/event-stream format and an async iterator of
// the contract's events.
import type { ContractEvent, FeedEntry } from './types';

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** The messages of a text/event-stream body (WHATWG HTML §9.2: fields, comments, blank-line dispatch). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  let buffer = '';
  let message: { event?: string; data: string[]; id?: string } = { data: [] };
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      // The last piece may be a partial line (a lone trailing \r is kept too, in case \n follows).
      buffer = done ? '' : lines.pop()!;
      for (const line of lines) {
        if (line === '') {
          if (message.data.length > 0) {
            yield {
              event: message.event ?? 'message',
              data: message.data.join('\n'),
              ...(message.id === undefined ? {} : { id: message.id }),
            };
          }
          message = { data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') message.data.push(value);
        else if (field === 'event') message.event = value;
        else if (field === 'id') message.id = value;
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

export interface StreamedEvent {
  /** 1-based position in the contract's log: pass it as `lastEventId` to resume after it. */
  position: number;
  event: ContractEvent;
}

export interface StreamEventsOptions {
  /** Resume after this position (the `Last-Event-ID` header). */
  lastEventId?: number;
  signal?: AbortSignal;
}

/** The end of a stream: `terminal` (the contract is finished) or `time-limit` (resume to go on). */
export type StreamEnd = { reason: 'terminal' | 'time-limit' | 'closed' };

/**
 * Yields each event, the past ones first; returns how the stream ended. `open` performs the HTTP
 * request; a refusal is thrown by `fail` (the SDK's AgentApiError), an `error` message likewise.
 */
type OpenStream = (headers: Record<string, string>, signal?: AbortSignal) => Promise<Response>;
type Fail = (status: number, code: string, message: string) => Error;

/** Opens an SSE request resuming after `lastEventId`; a refusal is thrown by `fail`. */
async function openSse(
  open: OpenStream,
  fail: Fail,
  options: { lastEventId?: number | string; signal?: AbortSignal },
): Promise<Response> {
  const response = await open(
    {
      Accept: 'text/event-stream',
      ...(options.lastEventId === undefined ? {} : { 'Last-Event-ID': String(options.lastEventId) }),
    },
    options.signal,
  );
  if (response.status === 204) return response;
  if (!response.ok || response.body === null) {
    const body = (await response.json().catch(() => undefined)) as
      { error?: { code?: string; message?: string } } | undefined;
    throw fail(
      response.status,
      body?.error?.code ?? 'http_error',
      body?.error?.message ?? `HTTP ${response.status}`,
    );
  }
  return response;
}

export async function* contractEventStream(
  open: OpenStream,
  fail: Fail,
  options: StreamEventsOptions = {},
): AsyncGenerator<StreamedEvent, StreamEnd> {
  const response = await openSse(open, fail, options);
  if (response.status === 204 || response.body === null) return { reason: 'terminal' };
  for await (const message of readSse(response.body)) {
    if (message.event === 'message') {
      yield { position: Number(message.id), event: JSON.parse(message.data) as ContractEvent };
    } else if (message.event === 'end') {
      return { reason: (JSON.parse(message.data) as { reason: 'terminal' | 'time-limit' }).reason };
    } else if (message.event === 'error') {
      const { code } = JSON.parse(message.data) as { code: string };
      throw fail(503, code, 'the event stream failed');
    }
  }
  return { reason: 'closed' };
}

export interface StreamFeedOptions {
  /** Resume after this entry id (the `Last-Event-ID` header): only the entries after it come. */
  lastEventId?: string;
  signal?: AbortSignal;
}

/**
 * Yields each entry of the caller's feed after `lastEventId`, then each new one, until the server ends
 * the stream (`time-limit`: reconnect with the last id seen) or the connection closes.
 */
export async function* feedStream(
  open: OpenStream,
  fail: Fail,
  options: StreamFeedOptions = {},
): AsyncGenerator<FeedEntry, StreamEnd> {
  const response = await openSse(open, fail, options);
  if (response.body === null) return { reason: 'closed' };
  for await (const message of readSse(response.body)) {
    if (message.event === 'message') yield JSON.parse(message.data) as FeedEntry;
    else if (message.event === 'end') return { reason: 'time-limit' };
  }
  return { reason: 'closed' };
}
