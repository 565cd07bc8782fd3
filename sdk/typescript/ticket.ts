// The SDK keeps the latest verified-agent ticket the service answered and presents it on every
// request, so a stranger's forgeries from the same network address never refuse this agent
// (docs/security.md "Shared addresses"). The ticket is opaque here; the signature still authenticates.
import { TICKET_HEADER } from '../../api/auth/ticket-header';

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** `fetch` that sends the latest ticket and keeps any newer one from the answer. */
export function carryingTicket(fetch: Fetch): Fetch {
  let ticket: string | undefined;
  return async (input, init) => {
    const headers = new Headers(init.headers);
    if (ticket !== undefined && !headers.has(TICKET_HEADER)) headers.set(TICKET_HEADER, ticket);
    const response = await fetch(input, { ...init, headers });
    ticket = response.headers.get(TICKET_HEADER) ?? ticket;
    return response;
  };
}
