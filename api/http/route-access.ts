// Who may call a route, declared once for both the server and /openapi.json: `accessRoute` puts the
// access's middleware on the route and, in the document, the headers that middleware reads (the
// signature's, the Idempotency-Key), its security and every refusal it can answer. A signed route
// written with it cannot be published without its headers; test/api/openapi-completeness.test.ts
// fails for one written without it.
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { IDEMPOTENCY_HEADER } from './idempotency';
import { TICKET_HEADER } from '../auth/ticket-header';
import { errorResponses } from '../openapi/schemas';

/** Where the signing guide is served (api/routes/signing-guide.ts). */
export const SIGNING_GUIDE_PATH = '/docs/signing';
/** Operation extension naming whether the route checks a request signature: `required` or `optional`. */
export const SIGNATURE_EXTENSION = 'x-signature';

// A tuple in the constraint keeps a chain's tuple type, from which Hono reads the route's environment.
export type Middleware = MiddlewareHandler | [MiddlewareHandler, ...MiddlewareHandler[]];

export interface Access<M extends Middleware | undefined> {
  /** `operator`: the operator's bearer token; `public`: anyone, unsigned. */
  kind: 'public' | 'signed' | 'optionallySigned' | 'operator';
  /** Whether the route honours an Idempotency-Key (every mutating signed or operator route), or needs one. */
  keyed: false | 'optional' | 'required';
  middleware: M;
}

const EXAMPLE_ADDRESS = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const header = (name: string, required: boolean, description: string, example: string) => ({
  name,
  in: 'header' as const,
  required,
  description,
  schema: { type: 'string' as const, example },
  example,
});

function signatureHeaders(required: boolean, body: 'none' | 'optional' | 'required') {
  const when = required ? '' : 'Only with a signature (then required): ';
  return [
    header(
      'Signature-Input',
      required,
      `${when}the RFC 9421 signature parameters, label sig1: covered components "@method" "@path", then "@query" when the URL has a query, then "content-digest" when there is a body; created, expires (at most 300 s after created), nonce (16-128 characters, never reused), keyid (the signer's lowercase address). Guide and test vectors: ${SIGNING_GUIDE_PATH}.`,
      `sig1=("@method" "@path" "content-digest");created=1700000000;expires=1700000060;nonce="kY2n0q3dTn6y8Jz1Yx7w1A";keyid="${EXAMPLE_ADDRESS}"`,
    ),
    header(
      'Signature',
      required,
      `${when}sig1=:<base64 of the 65-byte secp256k1 signature r‖s‖v>: over the signature base as an EIP-191 personal message (${SIGNING_GUIDE_PATH}).`,
      'sig1=:e5AsQSJ2BLSP6AX6k4rgPXZezklGuERqr1YAgzhYldhAYLmZMebZhdbGoqtJUtywwAu/sYs4dcR4OeumWW2Yfxs=:',
    ),
    header(
      TICKET_HEADER,
      false,
      `Optional: the latest verified-agent ticket the service answered to this signer (every verified signed request's answer carries a fresh one, valid 30 days). With a valid ticket for the keyid that Signature-Input claims, the request skips its network address's budget for unverified signatures, so strangers' forgeries from the same address never refuse it; the signature is still required and verified. The SDKs send it by themselves (docs/security.md "Shared addresses").`,
      'v1.1702592000.q3Zb1m0xVfN8c1yJx7kT2A',
    ),
    header(
      'On-Behalf-Of',
      false,
      `Only for a delegate key acting for its owner under a mandate (docs/agents.md "Mandates"): the owner's lowercase address, covered by the signature as the last component "on-behalf-of". The owner is then the caller; refusals 403 mandate_exceeded, mandate_expired, mandate_revoked, mandate_missing, mandate_role, mandate_counterparty, mandate_not_allowed.`,
      EXAMPLE_ADDRESS,
    ),
    ...(body === 'none'
      ? []
      : [
          header(
            'Content-Digest',
            required && body === 'required',
            'sha-256=:<base64 of the SHA-256 of the exact body bytes>: (RFC 9530); required, and covered by the signature, whenever the body has at least one byte.',
            'sha-256=:bircwEmOiTcL1+VSUdLJkklBl2qaFafE0zW6bHGICqQ=:',
          ),
        ]),
  ];
}

const idempotencyHeader = (required: boolean) =>
  header(
    IDEMPOTENCY_HEADER,
    required,
    `${required ? 'Required here' : 'Optional'}: 1-255 visible ASCII characters chosen by the caller. A repeat with the same key (same caller, method and path) and the same query and body gets the first answer again, with Idempotent-Replayed: true, and changes nothing; the same key with another request answers 422; while the first is still running, 409 idempotency_in_progress.`,
    'create-2026-11-25-001',
  );

/** The refusals the access itself can answer, whatever the route does. */
function accessRefusals(access: Access<Middleware | undefined>, hasBody: boolean): number[] {
  const statuses = [429];
  if (access.kind !== 'public') statuses.push(401);
  if (access.keyed) statuses.push(400, 409, 422);
  if (hasBody) statuses.push(400, 413);
  return statuses;
}

function bodyPresence(route: RouteConfig): 'none' | 'optional' | 'required' {
  const body = route.request?.body;
  if (body === undefined) return 'none';
  return body.required === true ? 'required' : 'optional';
}

type Parameters = NonNullable<RouteConfig['parameters']>;
interface Declaration {
  security?: RouteConfig['security'];
  parameters: Parameters;
  [SIGNATURE_EXTENSION]?: 'required' | 'optional';
}

/** OpenAPI security, signature extension and header parameters of an access. */
function declaration(access: Access<Middleware | undefined>, route: RouteConfig): Declaration {
  const body = bodyPresence(route);
  const keyed = access.keyed === false ? [] : [idempotencyHeader(access.keyed === 'required')];
  switch (access.kind) {
    case 'public':
      return { security: [], parameters: [] };
    case 'operator':
      return { security: [{ operatorToken: [] }], parameters: keyed };
    case 'signed':
    case 'optionallySigned': {
      const required = access.kind === 'signed';
      return {
        [SIGNATURE_EXTENSION]: required ? 'required' : 'optional',
        parameters: [...signatureHeaders(required, body), ...keyed],
      };
    }
  }
}

const TICKET_RESPONSE_HEADER = {
  description:
    'A fresh verified-agent ticket for the signer, on every answer to a request whose signature was verified; send it back as the OpenContract-Ticket request header (docs/security.md "Shared addresses").',
  schema: { type: 'string' as const, example: 'v1.1702592000.q3Zb1m0xVfN8c1yJx7kT2A' },
};

/** The route's successful answers, each declaring the ticket header a verified signature earns. */
function withTicketHeader<T extends RouteConfig['responses']>(responses: T): T {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      Number(status) < 400 && !('$ref' in response)
        ? { ...response, headers: { ...response.headers, [TICKET_HEADER]: TICKET_RESPONSE_HEADER } }
        : response,
    ]),
  ) as T;
}

/** createRoute with the access's middleware, headers, security and refusals. */
export function accessRoute<
  M extends Middleware | undefined,
  const R extends Omit<RouteConfig, 'middleware' | 'security'>,
>(access: Access<M>, route: R) {
  const declared = declaration(access, route as RouteConfig);
  return createRoute({
    ...route,
    ...declared,
    middleware: access.middleware,
    parameters: [...declared.parameters, ...(route.parameters ?? [])] as Parameters,
    responses: {
      ...errorResponses(...accessRefusals(access, bodyPresence(route as RouteConfig) !== 'none')),
      ...(access.kind === 'signed' || access.kind === 'optionallySigned'
        ? withTicketHeader(route.responses)
        : route.responses),
    },
  });
}

/** Anyone, unsigned (a signature sent anyway is refused only by the address rate limit's rules). */
export const PUBLIC_ACCESS: Access<undefined> = { kind: 'public', keyed: false, middleware: undefined };
