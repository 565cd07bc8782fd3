// The event log as the public sees it: no more than the public view (api/contracts/views.ts), which
// names no party. Every agent address becomes the role it plays, read from the log itself (the
// creator is the Client, contract.matched names the Worker, contract.panel-drawn the panel); any
// other agent (a bidder) is `agent`. Parties and drawn Backup Agents read the log unchanged.
import type { ContractView } from '../../workflows/definitions';
import type { ContractEvent } from '../../workflows/rules/events';
import { publicEvents, type JsonObject } from '../../workflows/rules/public-events';
import { roleOf } from './views';

/** What `caller` may read of the log: all of it as a party (Client, Worker, drawn BA), else the public form. */
export function eventsVisibleTo(
  view: ContractView,
  caller: string | undefined,
): (events: readonly ContractEvent[]) => JsonObject[] {
  return roleOf(view, caller) === null ? publicEvents : (events) => events.map((e) => ({ ...e }));
}
