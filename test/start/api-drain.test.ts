// A stopping API (service/api-drain.ts): the request in flight is answered, a new one is refused 503
// `shutting_down` before anything runs (so its caller retries elsewhere), and the wait is bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestDrain } from '../../service/api-drain';

function gatedFetch() {
  let runs = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const fetch = async (_request: Request) => {
    runs += 1;
    await gate;
    return new Response('done', { status: 201 });
  };
  return { fetch, open, runs: () => runs };
}

test('the request in flight finishes; one arriving during the drain is refused before it runs', async () => {
  const drain = new RequestDrain();
  const handler = gatedFetch();
  const fetch = drain.wrap(handler.fetch);
  const inFlight = fetch(new Request('http://api/contracts', { method: 'POST' }));
  assert.equal(drain.pending, 1);
  const drained = drain.drain(5_000);
  const late = await fetch(new Request('http://api/contracts', { method: 'POST' }));
  assert.equal(late.status, 503);
  assert.equal(late.headers.get('Connection'), 'close');
  assert.equal(((await late.json()) as { error: { code: string } }).error.code, 'shutting_down');
  assert.equal(handler.runs(), 1, 'the late request ran nothing');
  handler.open();
  assert.equal((await inFlight).status, 201);
  assert.equal(await drained, 0, 'every request in flight answered');
});

test('the drain gives up after its grace period and says how many were left', async () => {
  const drain = new RequestDrain();
  const handler = gatedFetch();
  const stuck = drain.wrap(handler.fetch)(new Request('http://api/x', { method: 'POST' }));
  const started = Date.now();
  assert.equal(await drain.drain(200), 1);
  assert.ok(Date.now() - started < 2_000);
  handler.open();
  await stuck;
});
