// The API's Temporal client (service/temporal-client.ts) waits out a restart of the server: a call made while
// the frontend is down is retried until it is back, and answered within about a second of its return, not
// after gRPC's reconnect backoff (up to 120 s) or the SDK's retry interval (up to 5 s): with those, the same
// call was answered 3.5-4.4 s after an 8 s outage ended.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePortRange } from '../../service/cluster-process';
import { startDevServer } from '../../service/dev-server';
import type { GrpcRetryOptions } from '@temporalio/client';
import { connectTemporalClient, unavailableRetry } from '../../service/temporal-client';

type GrpcStatus = Parameters<GrpcRetryOptions['delayFunction']>[1];
const grpcStatus = (code: number) => ({ code, details: '', metadata: undefined }) as unknown as GrpcStatus;

const DOWN_MS = 6_000;

test('a call made while the server is down is answered within a second or so of its return', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oc-reconnect-'));
  const port = await freePortRange([0, 1]);
  const options = { port, uiPort: port + 1 };
  let server = await startDevServer(dir, 1, options);
  const { client, connection } = await connectTemporalClient({
    codecKey: randomBytes(32),
    env: { TEMPORAL_ADDRESS: server.address },
  });
  try {
    await client.workflowService.getSystemInfo({});
    await server.stop();
    const sent = Date.now();
    const answered = client.workflowService.getSystemInfo({}).then(() => Date.now());
    await new Promise((r) => setTimeout(r, DOWN_MS));
    server = await startDevServer(dir, 1, options);
    const back = Date.now();
    const at = await answered;
    assert.ok(at - sent >= DOWN_MS, `the call waited for the server (${at - sent} ms)`);
    assert.ok(at - back <= 1_500, `answered ${at - back} ms after the server was back`);
  } finally {
    await connection.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unanswering frontend is retried at most a second apart for about 18 s; other failures as the SDK does', () => {
  const retry = unavailableRetry();
  const unavailable = grpcStatus(14);
  const exhausted = grpcStatus(8); // RESOURCE_EXHAUSTED
  const delays: number[] = [];
  for (let attempt = 1; retry.retryableDecider(attempt, unavailable); attempt++) {
    delays.push(retry.delayFunction(attempt, unavailable));
  }
  assert.equal(delays.length, 19);
  assert.ok(Math.max(...delays) <= 1_000);
  const total = delays.reduce((a, b) => a + b, 0);
  assert.ok(total > 14_000 && total < 20_000, `waits ${total} ms in all`);
  assert.equal(retry.retryableDecider(10, exhausted), false);
  assert.ok(retry.delayFunction(5, exhausted) > 1_000, 'RESOURCE_EXHAUSTED backs off from 1 s');
});
