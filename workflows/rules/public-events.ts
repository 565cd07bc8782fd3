// The event log as the public sees it: every agent address becomes the role it plays, read from the
// log itself (the creator is the Client, contract.matched names the Worker, contract.panel-drawn the
// panel); any other agent (a bidder) is `agent`. Pure: the API's reads and the agent feed use it.
import { isAddress } from './address';
import type { ContractEvent } from './events';

export type PublicRole = 'client' | 'worker' | 'backup-agent' | 'agent';

function rolesIn(events: readonly ContractEvent[]): Map<string, PublicRole> {
  const roles = new Map<string, PublicRole>();
  for (const e of events) {
    if (e.type === 'contract.created') roles.set(e.actor, 'client');
    if (e.type === 'contract.created' && e.worker !== undefined) roles.set(e.worker, 'worker');
    if (e.type === 'contract.matched') roles.set(e.worker, 'worker');
    if (e.type === 'contract.panel-drawn') for (const a of e.panel) roles.set(a, 'backup-agent');
  }
  return roles;
}

export type JsonObject = Record<string, unknown>;

function redactObject(value: object, roles: Map<string, PublicRole>): JsonObject {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, roles)]));
}

function redact(value: unknown, roles: Map<string, PublicRole>): unknown {
  if (typeof value === 'string') return isAddress(value) ? (roles.get(value) ?? 'agent') : value;
  if (Array.isArray(value)) return value.map((v) => redact(v, roles));
  if (value !== null && typeof value === 'object') return redactObject(value, roles);
  return value;
}

/** The log with every address replaced by its role. */
export function publicEvents(events: readonly ContractEvent[]): JsonObject[] {
  const roles = rolesIn(events);
  return events.map((e) => redactObject(e, roles));
}
