// GET /contracts/:id/delivery: the delivery's normalized content (docs/protocol.md §10), kept sealed in the vault
// beside the delivery key and released to whoever may read that key (api/contracts/key-release.ts): the Client
// and the drawn Backup Agents. The workflow only ever held its hash.
import { heldDeliveryVaultId } from '../contracts/delivery-seal';
import { OpenAPIHono } from '@hono/zod-openapi';
import { accessRoute } from '../http/route-access';
import type { ApiContext } from '../deps';
import { forbidden, notFound, validationHook } from '../errors';
import { extractConfidence } from '../ingest';
import { mayReadKey } from '../contracts/key-release';
import type { SignedEnv } from '../auth';
import type { AuthMiddleware } from '../middleware';
import { contractIdParams, deliveryContentSchema, errorResponses } from '../openapi/schemas';
import { existingContract } from '../contracts/requests';

export function deliveryContentApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    accessRoute(auth.access.signed, {
      method: 'get',
      path: '/{id}/delivery',
      summary: 'The delivery’s normalized content and confidence, for the Client (and drawn Backup Agents)',
      request: { params: contractIdParams },
      responses: {
        200: {
          description: 'the content as ingested, with the reference and hashes it belongs to',
          content: { 'application/json': { schema: deliveryContentSchema } },
        },
        ...errorResponses(401, 403, 404),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      const id = c.req.valid('param').id;
      const view = await existingContract(ctx, id);
      // Whether anything was delivered is public (the status says it); the content is not.
      if (view.delivery === null) throw notFound('nothing delivered yet', undefined, 'no_delivery');
      if (!mayReadKey(view, caller, 'delivery')) {
        throw forbidden(
          'the delivery is only for the Client (and drawn Backup Agents)',
          undefined,
          'not_allowed',
        );
      }
      const stored = await ctx.vault.getContent(heldDeliveryVaultId(view), 'delivery');
      if (stored === undefined)
        throw notFound('no stored content for this delivery', undefined, 'no_delivery');
      const content = JSON.parse(stored) as Record<string, unknown>;
      const confidence = extractConfidence(content);
      const { uri, sha256, contentHash } = view.delivery;
      return c.json(
        {
          contractId: id,
          uri,
          sha256,
          contentHash,
          content,
          ...(confidence === undefined ? {} : { confidence }),
        },
        200,
      );
    },
  );
  return app;
}
