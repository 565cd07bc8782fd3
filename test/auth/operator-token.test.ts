import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { parseOperatorToken, requireOperatorToken } from '../../api/auth/operator-token';

const TOKEN = 'op-token-0123456789abcdef';

function makeApp() {
  let deposits = 0;
  const app = new Hono();
  app.use('/operator/*', requireOperatorToken(TOKEN));
  app.post('/operator/deposits', (c) => {
    deposits += 1;
    return c.json({ ok: true });
  });
  return { app, deposits: () => deposits };
}

describe('requireOperatorToken', () => {
  test('the right bearer token passes', async () => {
    const { app, deposits } = makeApp();
    const res = await app.request('/operator/deposits', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(res.status, 200);
    assert.equal(deposits(), 1);
  });

  for (const [name, authorization] of [
    ['missing', undefined],
    ['wrong', 'Bearer op-token-0123456789abcdeX'],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token with a suffix', `Bearer ${TOKEN}x`],
    ['another scheme', `Basic ${TOKEN}`],
    ['empty bearer', 'Bearer '],
  ] as const) {
    test(`${name} → 401 with the JSON error shape, nothing done`, async () => {
      const { app, deposits } = makeApp();
      const headers: Record<string, string> =
        authorization === undefined ? {} : { Authorization: authorization };
      const res = await app.request('/operator/deposits', { method: 'POST', headers });
      assert.equal(res.status, 401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'unauthorized');
      assert.match(body.error.message, /operator token/);
      assert.equal(deposits(), 0);
    });
  }

  test('a weak or missing OPERATOR_TOKEN is refused at start, naming the setting, not echoing it', () => {
    assert.throws(
      () => parseOperatorToken(undefined),
      /^Error: OPERATOR_TOKEN must be set to a token of at least 16/,
    );
    assert.throws(
      () => parseOperatorToken('short-secret'),
      (err: Error) => err.message.includes('OPERATOR_TOKEN') && !err.message.includes('short-secret'),
    );
    assert.throws(() => requireOperatorToken('has a space in it!!'), /OPERATOR_TOKEN/);
    assert.equal(parseOperatorToken(` ${TOKEN}\n`), TOKEN);
  });
});
