// GET /contracts/:id/events/stream (Server-Sent Events) through app.request() on the real stack: the
// past events, then each new one as it happens, `end` once terminal, resumption by Last-Event-ID,
// 204 once everything was seen, the time limit, and the usual 400/404.
import { SqlitePayoutStore } from '../../store/payouts/sqlite';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createApp, type App } from '../../api/app';
import { SqliteNonceStore } from '../../store';
import { SqliteIdempotencyStore } from '../../store/idempotency/sqlite';
import { readSse, type SseMessage } from '../../sdk/typescript';
import { createTemporalClient } from '../../service/temporal-client';
import { startAppHarness, TASK_QUEUE, type AppHarness } from '../support/service';
import { call, type Json } from './support';
import { contractBody, newAgent } from '../support/fixtures';

let h: AppHarness;
let dir: string;
let nonces: SqliteNonceStore;
let idempotency: SqliteIdempotencyStore;
/** The app with a fast poll and a short time limit, over the harness's stack. */
let app: App;
const POLL_MS = 100;
const MAX_DURATION_MS = 3_000;

before(async () => {
  h = await startAppHarness();
  dir = mkdtempSync(join(tmpdir(), 'oc-sse-'));
  nonces = new SqliteNonceStore(join(dir, 'nonces.sqlite'));
  idempotency = new SqliteIdempotencyStore(join(dir, 'idempotency.sqlite'));
  app = createApp({
    temporal: createTemporalClient({
      connection: h.env.connection,
      namespace: h.env.namespace ?? 'default',
      codecKey: h.settings.payloadCodecKey,
    }),
    taskQueue: TASK_QUEUE,
    ledger: h.ledger,
    records: h.records,
    vault: h.vault,
    nonces,
    idempotency,
    payouts: new SqlitePayoutStore(':memory:'),
    params: h.settings.params,
    operatorToken: h.settings.operatorToken,
    cursorKey: h.settings.cursorKey,
    eventStream: { pollMs: POLL_MS, maxDurationMs: MAX_DURATION_MS, heartbeatMs: 60_000 },
  });
});
after(async () => {
  nonces?.close();
  idempotency?.close();
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function openStream(id: string, lastEventId?: string) {
  const res = await app.request(`/contracts/${id}/events/stream`, {
    headers: {
      Accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }),
    },
  });
  return { res, messages: res.body ? readSse(res.body) : undefined };
}

async function next(messages: AsyncGenerator<SseMessage>, timeoutMs = 10_000): Promise<SseMessage> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no SSE message in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const { value, done } = await Promise.race([messages.next(), timeout]);
    assert.equal(done, false, 'the stream ended');
    return value as SseMessage;
  } finally {
    clearTimeout(timer);
  }
}

async function directContract() {
  const client = newAgent();
  const worker = newAgent();
  await h.fund(client.address, 10_000_000n);
  await h.fund(worker.address, 10_000_000n);
  const created = await call(app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
  assert.equal(created.status, 201, created.text);
  return { id: created.json.contractId as string, client, worker };
}

test('past events first, then each new one live, then `end` once terminal; 204 when all seen', async () => {
  const { id, worker } = await directContract();
  const { res, messages } = await openStream(id);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const created = await next(messages!);
  assert.deepEqual([created.event, created.id], ['message', '1']);
  assert.equal(JSON.parse(created.data).type, 'contract.created');

  // Live: each message the workflow records arrives on the open stream.
  assert.equal((await call(app, worker, 'POST', `/contracts/${id}/accept`, { body: {} })).status, 200);
  const matched = await next(messages!);
  assert.deepEqual([matched.id, JSON.parse(matched.data).type], ['2', 'contract.matched']);
  assert.equal((await call(app, worker, 'POST', `/contracts/${id}/withdraw`, { body: {} })).status, 200);
  const rest: SseMessage[] = [];
  for (;;) {
    const m = await next(messages!);
    rest.push(m);
    if (m.event === 'end') break;
  }
  const end = rest.pop()!;
  assert.deepEqual(JSON.parse(end.data), { contractId: id, reason: 'terminal' });
  assert.equal((await messages!.next()).done, true, 'the server closes after `end`');

  // Exactly the log, in order, numbered by position.
  const log = (await call(app, undefined, 'GET', `/contracts/${id}/events`)).json.events;
  const streamed = [created, matched, ...rest];
  assert.deepEqual(
    streamed.map((m) => JSON.parse(m.data)),
    log,
  );
  assert.deepEqual(
    streamed.map((m) => m.id),
    log.map((_: unknown, i: number) => String(i + 1)),
  );
  assert.equal(log.at(-1).type, 'contract.cancelled');

  // Resuming after position 2 sends only the rest; after the last one there is nothing more: 204.
  const resumed = await openStream(id, '2');
  const again: SseMessage[] = [];
  for await (const m of resumed.messages!) again.push(m);
  assert.deepEqual(
    again.map((m) => m.id ?? m.event),
    [...log.slice(2).map((_: unknown, i: number) => String(i + 3)), 'end'],
  );
  const done = await openStream(id, String(log.length));
  assert.equal(done.res.status, 204);
});

test('an open contract: the stream ends with `time-limit` after maxDurationMs', async () => {
  const { id } = await directContract();
  const started = Date.now();
  const { messages } = await openStream(id);
  const all: SseMessage[] = [];
  for await (const m of messages!) all.push(m);
  const elapsed = Date.now() - started;
  assert.deepEqual(
    all.map((m) => m.event),
    ['message', 'end'],
  );
  assert.deepEqual(JSON.parse(all[1]!.data), { contractId: id, reason: 'time-limit' });
  assert.ok(elapsed >= MAX_DURATION_MS && elapsed < MAX_DURATION_MS + 5_000, `${elapsed} ms`);
});

test('a client that goes away: cancelling its stream ends it cleanly, a new one starts afresh', async () => {
  const { id } = await directContract();
  const { res, messages } = await openStream(id);
  await next(messages!);
  await messages!.return(undefined); // releases the reader
  await res.body!.cancel();
  // Nothing observable is left running: a new stream on the same contract still works.
  const again = await openStream(id);
  assert.equal(JSON.parse((await next(again.messages!)).data).type, 'contract.created');
  await again.messages!.return(undefined);
  await again.res.body!.cancel();
});

test('unknown contract → 404; a bad Last-Event-ID → 400 naming it', async () => {
  const unknown = await openStream('c-aaaaaaaaaaaaaaaaaaaaaaaaaa');
  assert.equal(unknown.res.status, 404);
  assert.equal(((await unknown.res.json()) as Json).error.code, 'contract_not_found');
  const { id } = await directContract();
  const bad = await openStream(id, 'abc');
  assert.equal(bad.res.status, 400);
  assert.equal(((await bad.res.json()) as Json).error.details.fields[0].field, 'Last-Event-ID');
});
