// GET /contracts/:id/keys/materials · /keys/delivery (docs/protocol.md §9): the decryption keys, signed callers
// only, released by the rule of api/contracts/key-release.ts to the role the workflow's view gives the caller.
import { heldDeliveryVaultId } from '../contracts/delivery-seal';
import { OpenAPIHono } from '@hono/zod-openapi';
import { accessRoute } from '../http/route-access';
import type { ApiContext } from '../deps';
import { forbidden, notFound, validationHook } from '../errors';
import { mayReadKey } from '../contracts/key-release';
import type { SignedEnv } from '../auth';
import type { AuthMiddleware } from '../middleware';
import { contractIdParams, errorResponses, keySchema } from '../openapi/schemas';
import type { KeyKind } from '../../store/vault/sqlite';
import { existingContract } from '../contracts/requests';

const WHO: Record<KeyKind, string> = {
  materials: 'the matched Worker (and drawn Backup Agents)',
  delivery: 'the Client (and drawn Backup Agents)',
};

export function keysApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  for (const kind of ['materials', 'delivery'] as const) {
    app.openapi(
      accessRoute(auth.access.signed, {
        method: 'get',
        path: `/{id}/keys/${kind}`,
        summary: `The ${kind} decryption key, for ${WHO[kind]}`,
        request: { params: contractIdParams },
        responses: {
          200: {
            description: 'the key and the reference it opens',
            content: { 'application/json': { schema: keySchema } },
          },
          ...errorResponses(401, 403, 404),
        },
      }),
      async (c) => {
        const caller = c.var.caller;
        const id = c.req.valid('param').id;
        const view = await existingContract(ctx, id);
        if (!mayReadKey(view, caller, kind))
          throw forbidden(`the ${kind} key is only for ${WHO[kind]}`, undefined, 'not_allowed');
        const ref = kind === 'materials' ? view.materials : view.delivery;
        const key =
          ref === null
            ? undefined
            : await ctx.vault.get(kind === 'delivery' ? heldDeliveryVaultId(view) : id, kind);
        if (ref === null || key === undefined) {
          throw notFound(
            kind === 'materials' ? 'this contract has no materials' : 'nothing delivered yet',
            undefined,
            'no_key',
          );
        }
        return c.json({ contractId: id, kind, uri: ref.uri, sha256: ref.sha256, key }, 200);
      },
    );
  }
  return app;
}
