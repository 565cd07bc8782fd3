// /openapi.json is complete enough for a generator to build a working client (see
// ./openapi-completeness.ts for what is checked), and the signing guide and its vectors are served.
// The document depends on the routes alone, so the app is built without a Temporal server: no
// route is called but the documentation's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, type AppDeps } from '../../api/app';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { completenessGaps, type Document } from './openapi-completeness';

const root = join(__dirname, '..', '..');
/** Only the parts createApp reads while assembling the routes; no request here reaches the others. */
const app = createApp({
  params: DEFAULT_PARAMS,
  operatorToken: 'operator-token-for-documentation-only-0000',
  cursorKey: new Uint8Array(32),
  temporal: { workflow: {} },
} as unknown as AppDeps);

async function get(path: string) {
  const res = await app.request(path);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('/openapi.json', () => {
  test('is OpenAPI 3.1 and every operation, parameter and field is fully declared', async () => {
    const res = await get('/openapi.json');
    assert.equal(res.status, 200);
    const doc = JSON.parse(res.text) as Document & { openapi: string };
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(completenessGaps(doc), []);
  });

  test('declares each header required or optional as the route treats it', async () => {
    const doc = JSON.parse((await get('/openapi.json')).text) as Document;
    const required = (path: string, method: string) =>
      Object.fromEntries(
        (doc.paths[path]?.[method]?.parameters ?? [])
          .filter((p) => p.in === 'header')
          .map((p) => [p.name, p.required]),
      );
    assert.deepEqual(required('/contracts', 'post'), {
      'Signature-Input': true,
      Signature: true,
      'Content-Digest': true,
      'OpenContract-Ticket': false,
      'On-Behalf-Of': false,
      'Idempotency-Key': false,
    });
    // A message's body is optional: no body, no Content-Digest.
    assert.equal(required('/contracts/{id}/accept', 'post')['Content-Digest'], false);
    assert.equal(required('/agents/{address}/withdrawals', 'post')['Idempotency-Key'], true);
    assert.deepEqual(required('/contracts/{id}', 'get'), {
      'Signature-Input': false,
      Signature: false,
      'OpenContract-Ticket': false,
      'On-Behalf-Of': false,
    });
    assert.deepEqual(required('/params', 'get'), {});
  });

  test('a route that skips accessRoute, or a field without description, is named', () => {
    const op = (extra: object) => ({
      responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } },
      ...extra,
    });
    const doc: Document = {
      paths: { '/a': { post: op({}) }, '/b': { get: op({ 'x-signature': 'required', parameters: [] }) } },
      components: { schemas: { X: { type: 'object', properties: { n: { type: 'number' } } } } },
    };
    assert.deepEqual(completenessGaps(doc), [
      'POST /a: says neither x-signature, operatorToken nor security: [] (use accessRoute)',
      'POST /a 200.n: no description',
      'POST /a 200.n: no example',
      'GET /b: no 429 answer',
      'GET /b: no 401 answer',
      'GET /b: no Signature-Input header',
      'GET /b: no Signature header',
    ]);
  });
});

describe('the signing guide', () => {
  test('is served at /docs/signing, linked from /docs, with the worked example', async () => {
    const docs = await get('/docs');
    assert.match(docs.text, /href="\/docs\/signing"/);
    const page = await get('/docs/signing');
    assert.equal(page.status, 200);
    assert.match(page.type, /^text\/html/);
    const markdown = await get('/docs/signing.md');
    assert.match(markdown.type, /^text\/markdown/);
    for (const text of [page.text, markdown.text]) {
      assert.ok(
        text.includes(
          'e5AsQSJ2BLSP6AX6k4rgPXZezklGuERqr1YAgzhYldhAYLmZMebZhdbGoqtJUtywwAu/sYs4dcR4OeumWW2Yfxs=',
        ),
      );
      assert.ok(text.includes('/docs/signing/vectors.json'));
    }
  });

  test('serves the test vectors as docs/signing-vectors.json holds them', async () => {
    const vectors = await get('/docs/signing/vectors.json');
    assert.equal(vectors.status, 200);
    assert.match(vectors.type, /^application\/json/);
    assert.equal(vectors.text, readFileSync(join(root, 'docs', 'signing-vectors.json'), 'utf8'));
  });
});
