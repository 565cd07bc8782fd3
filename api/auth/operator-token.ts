// The operator's bearer token (`Authorization: Bearer <OPERATOR_TOKEN>`, no signature; docs/api.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { errorBody } from '../errors';

export const MIN_OPERATOR_TOKEN_LENGTH = 16;

/** Validates the deployment setting; the error names the setting and never echoes its value. */
export function parseOperatorToken(value: string | undefined, settingName = 'OPERATOR_TOKEN'): string {
  const token = value?.trim() ?? '';
  if (token.length < MIN_OPERATOR_TOKEN_LENGTH || /\s/.test(token)) {
    throw new Error(
      `${settingName} must be set to a token of at least ${MIN_OPERATOR_TOKEN_LENGTH} characters without spaces`,
    );
  }
  return token;
}

// Hashing both sides first gives equal lengths, so the comparison time reveals neither the token's
// length nor how many leading characters matched.
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function requireOperatorToken(token: string) {
  const expected = parseOperatorToken(token);
  return createMiddleware(async (c, next) => {
    const match = /^Bearer +(\S+) *$/i.exec(c.req.header('Authorization') ?? '');
    if (!match?.[1]) {
      return c.json(errorBody('unauthorized', 'missing operator token (Authorization: Bearer <token>)'), 401);
    }
    if (!sameToken(match[1], expected)) return c.json(errorBody('unauthorized', 'wrong operator token'), 401);
    await next();
  });
}
