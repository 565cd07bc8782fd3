// The codec server (api/operator/codec-server.ts): Temporal's remote codec protocol over real HTTP. On a
// deployment (the service harness: an external Temporal) only the operator token decodes; on the
// embedded default a caller on this machine decodes without it, nobody else does, and encoding always
// needs the token.
import { serve, type ServerType } from '@hono/node-server';
import { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { Hono } from 'hono';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { codecServerApp } from '../../api/operator/codec-server';
import { mapError } from '../../api/errors/mapping';
import { createPayloadCodec, ENCRYPTED_ENCODING } from '../../service/codec';
import { contractWorkflowId } from '../../workflows/definitions';
import { agent, fixedTerms, fund } from '../e2e/support';
import { startServiceHarness, type ServiceHarness } from '../support/service';

type WirePayload = { metadata: Record<string, string>; data: string };
const b64 = (bytes: Uint8Array | null | undefined) =>
  Buffer.from(bytes ?? new Uint8Array()).toString('base64');
const toWire = (p: Payload): WirePayload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
  data: b64(p.data),
});
const text = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64').toString('utf8');

let h: ServiceHarness;
let sealedInput: Payload;
let taskDescription: string;

before(async () => {
  h = await startServiceHarness();
  const [client, worker] = [agent(h), agent(h)];
  await fund(h, client.address);
  const body = fixedTerms(worker.address);
  taskDescription = body.taskDescription;
  const created = await client.createContract(body);
  // The contract's input as Temporal stores it, read without the codec: sealed.
  const raw = new Client({ connection: h.env.connection, namespace: h.env.namespace ?? 'default' });
  const history = await raw.workflow.getHandle(contractWorkflowId(created.contractId)).fetchHistory();
  sealedInput = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
});
after(async () => h?.close());

async function post(
  base: string,
  path: string,
  payloads: WirePayload[],
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Namespace': 'default', ...headers },
    body: JSON.stringify({ payloads }),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as never };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

test('a deployment decodes a contract’s input for the operator token only', async () => {
  const url = h.url();
  assert.equal(text(toWire(sealedInput).metadata.encoding), ENCRYPTED_ENCODING);
  assert.ok(!text(toWire(sealedInput).data).includes(taskDescription));

  const anonymous = await post(url, '/codec/decode', [toWire(sealedInput)]);
  assert.equal(anonymous.status, 401, 'a loopback caller without the token, on a deployment');
  assert.deepEqual(anonymous.json, {
    error: { code: 'unauthorized', message: 'missing operator token (Authorization: Bearer <token>)' },
  });
  const wrong = await post(url, '/codec/decode', [toWire(sealedInput)], bearer('not-the-operator-token'));
  assert.equal(wrong.status, 401);

  const decoded = await post(url, '/codec/decode', [toWire(sealedInput)], bearer(h.settings.operatorToken));
  assert.equal(decoded.status, 200);
  const [original] = await createPayloadCodec(h.settings.payloadCodecKey).decode([sealedInput]);
  const { payloads } = decoded.json as { payloads: WirePayload[] };
  assert.deepEqual(payloads, [toWire(original!)]);
  assert.equal(text(payloads[0]!.metadata.encoding), 'json/plain');
  assert.equal(
    (JSON.parse(text(payloads[0]!.data)) as { terms: { taskDescription: string } }).terms.taskDescription,
    taskDescription,
  );
});

test('encode then decode gives back the payload; encoding needs the token', async () => {
  const url = h.url();
  const plain: WirePayload = {
    metadata: { encoding: b64(Buffer.from('json/plain')) },
    data: b64(Buffer.from(JSON.stringify({ note: 'sealed by the codec server' }))),
  };
  assert.equal((await post(url, '/codec/encode', [plain])).status, 401);
  const encoded = await post(url, '/codec/encode', [plain], bearer(h.settings.operatorToken));
  assert.equal(encoded.status, 200);
  const [sealed] = (encoded.json as { payloads: WirePayload[] }).payloads;
  assert.equal(text(sealed!.metadata.encoding), ENCRYPTED_ENCODING);
  assert.ok(!text(sealed!.data).includes('sealed by the codec server'));
  const decoded = await post(url, '/codec/decode', [sealed!], bearer(h.settings.operatorToken));
  assert.deepEqual((decoded.json as { payloads: WirePayload[] }).payloads, [plain]);
});

test('malformed bodies are refused with 400 naming the field; a payload under another key comes back as it is', async () => {
  const url = h.url();
  const auth = bearer(h.settings.operatorToken);
  const notBase64 = await post(url, '/codec/decode', [{ metadata: {}, data: '%%%' }], auth);
  assert.equal(notBase64.status, 400);
  assert.match(JSON.stringify(notBase64.json), /payloads.*data|base64/);
  const send = (body: string) =>
    fetch(`${url}/codec/decode`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth },
      body,
    });
  assert.equal((await send('{"payloads": {}}')).status, 400);
  assert.equal((await send('[1, 2]')).status, 400);
  assert.equal((await send('not json')).status, 400);
  // Protobuf's JSON leaves an empty list out: the Temporal CLI asks with `{}`.
  const empty = await send('{}');
  assert.equal(empty.status, 200);
  assert.deepEqual(await empty.json(), { payloads: [] });

  const [foreign] = await createPayloadCodec(new Uint8Array(32).fill(9)).encode([
    { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"a":1}') },
  ]);
  const mixed = await post(url, '/codec/decode', [toWire(foreign!), toWire(sealedInput)], auth);
  assert.equal(mixed.status, 200);
  const [kept, opened] = (mixed.json as { payloads: WirePayload[] }).payloads;
  assert.deepEqual(kept, toWire(foreign!));
  assert.equal(text(opened!.metadata.encoding), 'json/plain');
});

// The embedded default's policy, on a real loopback socket and with a peer address handed in.
const UI = 'http://127.0.0.1:8233';
function embeddedCodec(): Hono {
  const app = new Hono();
  app.route(
    '/codec',
    codecServerApp(
      {
        codec: createPayloadCodec(h.settings.payloadCodecKey),
        loopbackDecode: true,
        allowedOrigins: [UI, 'http://localhost:8233'],
      },
      h.settings.operatorToken,
    ),
  );
  app.onError((err, c) => {
    const { status, body } = mapError(err);
    return c.json(body, status as 400);
  });
  return app;
}

async function listening(app: Hono): Promise<{ url: string; server: ServerType }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, server }),
    );
  });
}

test('the embedded default decodes for its own UI on loopback without the token, never for anyone else', async () => {
  const app = embeddedCodec();
  const { url, server } = await listening(app);
  try {
    const fromUi = await post(url, '/codec/decode', [toWire(sealedInput)], { Origin: UI });
    assert.equal(fromUi.status, 200);
    assert.equal(fromUi.headers.get('access-control-allow-origin'), UI);
    const input = (fromUi.json as { payloads: WirePayload[] }).payloads[0]!;
    assert.equal(
      (JSON.parse(text(input.data)) as { terms: { taskDescription: string } }).terms.taskDescription,
      taskDescription,
    );
    // The CLI (no Origin) on this machine too.
    assert.equal((await post(url, '/codec/decode', [toWire(sealedInput)])).status, 200);

    for (const [why, headers] of [
      ['another site in the operator’s browser', { Origin: 'https://evil.example' }],
      ['relayed by a proxy on this machine', { 'X-Forwarded-For': '203.0.113.9' }],
      ['relayed by a proxy on this machine', { Forwarded: 'for=203.0.113.9' }],
      ['a wrong token, even on loopback', bearer('not-the-operator-token')],
    ] as const) {
      const refused = await post(url, '/codec/decode', [toWire(sealedInput)], headers);
      assert.equal(refused.status, 401, why);
      assert.ok(!JSON.stringify(refused.json).includes(b64(Buffer.from(taskDescription)).slice(0, 12)), why);
    }
    assert.equal((await post(url, '/codec/encode', [toWire(sealedInput)], { Origin: UI })).status, 401);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }

  // As @hono/node-server hands a socket to the app: a peer on another machine; a page whose DNS name was
  // rebound to 127.0.0.1 (fetch cannot set Host, so these go in without a socket).
  const fromPeer = (remoteAddress: string, host: string) =>
    app.request(
      '/codec/decode',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Host: host },
        body: JSON.stringify({ payloads: [toWire(sealedInput)] }),
      },
      { incoming: { socket: { remoteAddress, remoteFamily: 'IPv4' } } },
    );
  assert.equal((await fromPeer('127.0.0.1', '127.0.0.1:3000')).status, 200, 'control: loopback');
  assert.equal((await fromPeer('192.0.2.7', '127.0.0.1:3000')).status, 401, 'another machine');
  assert.equal((await fromPeer('127.0.0.1', 'evil.example:3000')).status, 401, 'a rebound DNS name');
});

test('CORS: the preflight answers the UI’s origin with the headers it sends, and nothing to another origin', async () => {
  const app = embeddedCodec();
  const preflight = (origin: string) =>
    app.request('/codec/decode', {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,x-namespace,authorization',
      },
    });
  const ok = await preflight(UI);
  assert.equal(ok.status, 204);
  assert.equal(ok.headers.get('access-control-allow-origin'), UI);
  assert.equal(ok.headers.get('access-control-allow-headers'), 'Content-Type,X-Namespace,Authorization');
  assert.equal(ok.headers.get('access-control-allow-credentials'), 'true');
  assert.match(ok.headers.get('access-control-allow-methods') ?? '', /POST/);
  const other = await preflight('https://evil.example');
  assert.equal(other.headers.get('access-control-allow-origin'), null);
});
