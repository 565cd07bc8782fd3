// A fetch that signs every request with the agent's key (signRequest), for clients generated from
// /openapi.json: hand it to the generated client as its `fetch`, and each call carries the
// Signature-Input, Signature and (with a body) Content-Digest headers its route declares, and the
// latest OpenContract-Ticket the service answered.
import { signRequest } from './signer';
import { carryingTicket } from './ticket';

export interface SignedFetchOptions {
  privateKey: Uint8Array | string;
  /** The fetch that sends the signed request (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** A delegate key's owner: every request names it in On-Behalf-Of (docs/agents.md "Mandates"). */
  onBehalfOf?: string;
}

export function signedFetch({ privateKey, fetch = globalThis.fetch, onBehalfOf }: SignedFetchOptions) {
  // The latest verified-agent ticket the service answered, presented on every request (./ticket.ts).
  const send = carryingTicket((url, init) => fetch(new Request(url, init)));
  return async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    // The exact bytes that will be sent: the signature covers their digest.
    const body = new Uint8Array(await request.arrayBuffer());
    const headers = new Headers(request.headers);
    const signature = signRequest({
      method: request.method,
      url: request.url,
      body,
      privateKey,
      ...(onBehalfOf === undefined ? {} : { onBehalfOf }),
    });
    for (const [name, value] of Object.entries(signature)) headers.set(name, value);
    return send(request.url, {
      method: request.method,
      headers,
      ...(body.length > 0 ? { body } : {}),
      signal: request.signal,
    });
  };
}
