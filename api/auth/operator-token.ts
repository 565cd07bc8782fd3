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

/** Why an `Authorization` header does not carry the operator token, or null when it does. */
export function operatorTokenRefusal(authorization: string | undefined, expected: string): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? '');
  if (!match?.[1]) return 'missing operator token (Authorization: Bearer <token>)';
  return sameToken(match[1], expected) ? null : 'wrong operator token';
}

export function requireOperatorToken(token: string) {
  const expected = parseOperatorToken(token);
  return createMiddleware(async (c, next) => {
    const refusal = operatorTokenRefusal(c.req.header('Authorization'), expected);
    if (refusal) return c.json(errorBody('unauthorized', refusal), 401);
    await next();
  });
}
