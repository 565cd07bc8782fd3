// Handlers answer with the types of api/contract-views.ts and api/sdk/types.ts; the zod response
// schemas of api/schemas.ts document those shapes in the OpenAPI document. This one cast is where
// the two meet, instead of a cast in every handler.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export function reply<T>(c: Context, body: T, status: ContentfulStatusCode = 200): never {
  return c.json(body as never, status) as never;
}
