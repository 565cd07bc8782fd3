// A request body's nesting depth, checked on the raw text before anything parses or walks it: the
// canonical JSON of a delivery, the content hash and zod all recurse, so a body nested thousands
// deep would overflow the stack there (a 500). No body the API takes needs more than a few levels.
import { createMiddleware } from 'hono/factory';
import { errorBody } from '../errors';

/** Deepest nesting of arrays and objects a body may have (a delivery's content included). */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of `[`/`{` in the UTF-8 `bytes`, brackets inside strings not counted; stops
 * counting once past `limit`. One pass, no recursion: the bytes may be anything (no byte of a
 * multi-byte UTF-8 character is a quote, a backslash or a bracket).
 */
export function jsonDepth(bytes: Uint8Array, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const ch = bytes[i];
    if (inString) {
      if (ch === 0x5c)
        i++; // a backslash escapes the next character
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

/** 400 `body_too_deep` for a body nested deeper than MAX_JSON_DEPTH; runs after the size limit. */
export const jsonDepthLimit = createMiddleware(async (c, next) => {
  if (c.req.raw.body === null) return next();
  // Read as bytes: the signature check digests the same cached bytes after this.
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (jsonDepth(bytes, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return c.json(
      errorBody(
        'body_too_deep',
        `the body must not nest arrays and objects more than ${MAX_JSON_DEPTH} deep`,
        {
          maxDepth: MAX_JSON_DEPTH,
        },
      ),
      400,
    );
  }
  return next();
});
