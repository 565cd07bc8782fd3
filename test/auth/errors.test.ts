// api/errors/index.ts lives beside the auth code it serves first; its tests live here.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTPException } from 'hono/http-exception';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import {
  ApiError,
  badRequest,
  conflict,
  errorBody,
  forbidden,
  insufficientFunds,
  notFound,
  toErrorResponse,
  unauthorized,
  unprocessable,
  validationHook,
} from '../../api/errors';

describe('errors', () => {
  test('errorBody has the §12 shape and omits absent details', () => {
    assert.deepEqual(errorBody('not_found', 'no such contract'), {
      error: { code: 'not_found', message: 'no such contract' },
    });
    assert.deepEqual(errorBody('conflict', 'late', { status: 'FDP' }), {
      error: { code: 'conflict', message: 'late', details: { status: 'FDP' } },
    });
  });

  test('one helper per status, each with its generic code or a given one', () => {
    const cases: Array<[ApiError, number, string]> = [
      [badRequest('x'), 400, 'bad_request'],
      [unauthorized('x'), 401, 'unauthorized'],
      [insufficientFunds('x'), 402, 'insufficient_funds'],
      [forbidden('x'), 403, 'forbidden'],
      [notFound('x'), 404, 'not_found'],
      [conflict('x'), 409, 'conflict'],
      [unprocessable('x'), 422, 'unprocessable'],
      [conflict('x', undefined, 'wrong_status'), 409, 'wrong_status'],
    ];
    for (const [err, status, code] of cases) {
      assert.ok(err instanceof ApiError);
      assert.deepEqual([err.status, err.code], [status, code]);
    }
  });

  test('an ApiError maps to its status and body', () => {
    assert.deepEqual(toErrorResponse(forbidden('only the Client approves', { role: 'worker' })), {
      status: 403,
      body: {
        error: { code: 'forbidden', message: 'only the Client approves', details: { role: 'worker' } },
      },
    });
  });

  test('a ZodError is a 400 naming each field', () => {
    const schema = z.object({ amount: z.string(), deadlines: z.object({ match: z.string() }) }).strict();
    const parsed = schema.safeParse({ amount: 5, deadlines: {}, status: 'AOS' });
    assert.equal(parsed.success, false);
    const { status, body } = toErrorResponse(parsed.error);
    assert.equal(status, 400);
    assert.equal(body.error.code, 'invalid_input');
    assert.match(body.error.message, /amount/);
    assert.match(body.error.message, /deadlines\.match/);
    const fields = (body.error.details as { fields: Array<{ field: string }> }).fields.map((f) => f.field);
    // An unknown key is named too (one flattener, workflows/rules/field-errors.ts).
    assert.match(body.error.message, /status/);
    assert.deepEqual(fields.sort(), ['amount', 'deadlines.match', 'status']);
  });

  test("Hono's 4xx HTTPException keeps its status; unknown errors are a bare 500", () => {
    assert.deepEqual(toErrorResponse(new HTTPException(400, { message: 'Malformed JSON in request body' })), {
      status: 400,
      body: { error: { code: 'bad_request', message: 'Malformed JSON in request body' } },
    });
    const leaky = new Error('SQLITE_CONSTRAINT at /srv/data/ledger.sqlite');
    assert.deepEqual(toErrorResponse(leaky), {
      status: 500,
      body: { error: { code: 'internal', message: 'internal error' } },
    });
    assert.deepEqual(toErrorResponse('a string').status, 500);
    assert.deepEqual(toErrorResponse(new HTTPException(503)).status, 500);
  });

  test('validationHook turns an OpenAPIHono validation failure into the §12 400', async () => {
    const app = new OpenAPIHono({ defaultHook: validationHook });
    app.onError((err, c) => {
      const { status, body } = toErrorResponse(err);
      return c.json(body, status as 400);
    });
    const route = createRoute({
      method: 'post',
      path: '/q',
      request: {
        body: { content: { 'application/json': { schema: z.object({ price: z.string() }).strict() } } },
      },
      responses: { 200: { description: 'ok' } },
    });
    app.openapi(route, (c) => c.json(c.req.valid('json'), 200));
    const headers = { 'Content-Type': 'application/json' };
    const bad = await app.request('/q', { method: 'POST', headers, body: '{"price":3}' });
    assert.equal(bad.status, 400);
    const badBody = (await bad.json()) as { error: { code: string; message: string } };
    assert.equal(badBody.error.code, 'invalid_input');
    assert.match(badBody.error.message, /price/);
    const malformed = await app.request('/q', { method: 'POST', headers, body: '{"price":' });
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { error: { code: string } }).error.code, 'bad_request');
    const ok = await app.request('/q', { method: 'POST', headers, body: '{"price":"3"}' });
    assert.deepEqual(await ok.json(), { price: '3' });
  });
});
