// Temporal's remote codec protocol (docs/operations.md "Reading contracts in the Temporal UI"), so the
// operator's Temporal UI and CLI show a contract's input, messages and result decoded: POST /codec/decode
// and /codec/encode take and answer `{ payloads: [{ metadata: { key: base64 }, data: base64 }] }`.
//
// Who may call (docs/security.md "Who can reach Temporal"): decoding needs the operator token, or — on
// the embedded default only — a browser or CLI on the service's own machine (a loopback peer, naming a
// loopback host, not relayed by a proxy, and from an allowed UI origin if it is a browser). Encoding always
// needs the token: a payload sealed under the codec key is a message the workflow acts on.
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { operatorTokenRefusal } from '../auth';
import { errorBody } from '../errors';
import { clientAddress } from '../http/rate-limit';

/** Temporal's largest payload is 2 MiB; base64 and JSON around it stay below this. */
export const CODEC_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
const MAX_PAYLOADS = 1000;

export interface CodecServerSettings {
  codec: PayloadCodec;
  /** The embedded default: decode for a caller on this machine without the operator token. */
  loopbackDecode: boolean;
  /** Origins of the Temporal UIs whose browsers may call (CORS); empty: no browser may. */
  allowedOrigins: readonly string[];
}

const base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'must be base64')
  .transform((value) => new Uint8Array(Buffer.from(value, 'base64')));
// Protobuf's JSON omits an empty list: `{}` is a request for no payloads (the CLI sends it).
const payloadsBody = z.object({
  payloads: z
    .array(
      z.object({
        metadata: z.record(z.string(), base64).optional(),
        data: base64.optional(),
      }),
    )
    .max(MAX_PAYLOADS, `at most ${MAX_PAYLOADS} payloads`)
    .default([]),
});

function toWire(payload: Payload) {
  const metadata = Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value ?? new Uint8Array()).toString('base64'),
    ]),
  );
  return { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') };
}

function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./i.test(address);
}

/** The Host header names this machine (a rebound DNS name pointing at 127.0.0.1 does not). */
function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

function isLocalCaller(c: Context, allowedOrigins: readonly string[]): boolean {
  const origin = c.req.header('Origin');
  return (
    isLoopbackAddress(clientAddress(c)) &&
    isLoopbackHost(c.req.header('Host')) &&
    PROXY_HEADERS.every((name) => c.req.header(name) === undefined) &&
    (origin === undefined || allowedOrigins.includes(origin))
  );
}

function requireCaller(operatorToken: string, allowLocal: (c: Context) => boolean): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const refusal = operatorTokenRefusal(c.req.header('Authorization'), operatorToken);
    if (refusal !== null && (c.req.header('Authorization') !== undefined || !allowLocal(c))) {
      return c.json(errorBody('unauthorized', refusal), 401);
    }
    await next();
  });
}

async function decodeEach(codec: PayloadCodec, payloads: Payload[]): Promise<Payload[]> {
  // One at a time: a payload this key cannot open (another key, tampered) is answered as it is, so the
  // UI still shows every other payload decoded.
  return Promise.all(
    payloads.map(async (payload) => (await codec.decode([payload]).catch(() => [payload]))[0]!),
  );
}

export function codecServerApp(settings: CodecServerSettings, operatorToken: string) {
  const app = new Hono();
  const { codec, allowedOrigins } = settings;
  app.use(
    '*',
    cors({
      origin: [...allowedOrigins],
      allowMethods: ['POST', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'X-Namespace', 'Authorization'],
      credentials: true,
      maxAge: 600,
    }),
  );
  const local = (c: Context) => settings.loopbackDecode && isLocalCaller(c, allowedOrigins);
  const limit = bodyLimit({
    maxSize: CODEC_BODY_LIMIT_BYTES,
    onError: (c) =>
      c.json(errorBody('payload_too_large', `the body must be at most ${CODEC_BODY_LIMIT_BYTES} bytes`), 413),
  });
  const route = (
    path: string,
    allowLocal: (c: Context) => boolean,
    apply: (payloads: Payload[]) => Promise<Payload[]>,
  ) =>
    app.post(path, requireCaller(operatorToken, allowLocal), limit, async (c) => {
      let raw: unknown;
      try {
        raw = await c.req.json();
      } catch {
        return c.json(errorBody('bad_request', 'the body must be JSON: { "payloads": [...] }'), 400);
      }
      // A ZodError answers 400 naming the field, through the app's error mapping.
      const payloads = await apply(payloadsBody.parse(raw).payloads);
      return c.json({ payloads: payloads.map(toWire) }, 200);
    });
  route('/decode', local, (payloads) => decodeEach(codec, payloads));
  route(
    '/encode',
    () => false,
    (payloads) => codec.encode(payloads),
  );
  return app;
}
