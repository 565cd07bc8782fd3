// From a contract's view and event log to the feed entries of the agents it concerns (pure). Who gets
// what: the Client every event; the Worker (named, or matched from its match on) every event; each
// seated Backup Agent every event from its draw on; a bidder, in the public form (addresses as roles,
// like any stranger reading the log), its own quote, the match and a cancellation. Rejected messages
// go to the parties only. Besides the events: `agent.named` to a direct award's Worker, `agent.drawn`
// to each Backup Agent drawn, and `agent.reminder` to a party whose next action falls due soon.
import type { ContractView } from '../../workflows/definitions';
import type { ContractEvent } from '../../workflows/rules/events';
import { isTerminal } from '../../workflows/rules/status';
import { nextAction, type AgentRole } from '../../workflows/rules/next-action';
import { publicEvents } from '../../workflows/rules/public-events';
import type { AgentContractRole, NewFeedEntry } from './types';

export interface ProjectionInput {
  view: ContractView;
  events: readonly ContractEvent[];
  /** The current panel's Backup Agents whose ballot is in: a vote reminder goes only to the others. */
  ballotsCast: readonly string[];
  /** Events already projected. */
  from: number;
  now: number;
  /** A reminder is written once the agent's action deadline is this close. */
  reminderLeadMs: number;
}

export interface Projection {
  entries: NewFeedEntry[];
  roles: AgentContractRole[];
  closed: boolean;
  dueAt: number | null;
}

const TERMINAL_EVENTS: ReadonlySet<ContractEvent['type']> = new Set([
  'contract.settled',
  'contract.cancelled',
]);
const BIDDER_EVENTS: ReadonlySet<ContractEvent['type']> = new Set(['contract.matched', 'contract.cancelled']);

/** The parties as of event `i` (included), and the roles each event hands out. */
class Parties {
  client: string | undefined;
  worker: string | undefined;
  readonly panel = new Set<string>();
  readonly bidders = new Set<string>();

  /** Takes event `e` in; the (agent, role) pairs it adds. */
  take(e: ContractEvent): [string, AgentRole][] {
    switch (e.type) {
      case 'contract.created':
        this.client = e.actor;
        this.worker = e.worker;
        return e.worker === undefined
          ? [[e.actor, 'client']]
          : [
              [e.actor, 'client'],
              [e.worker, 'worker'],
            ];
      case 'contract.quote-received':
        this.bidders.add(e.actor);
        return [[e.actor, 'bidder']];
      case 'contract.matched':
        this.worker = e.worker;
        return [[e.worker, 'worker']];
      case 'contract.panel-drawn':
        for (const a of e.panel) this.panel.add(a);
        return e.panel.map((a) => [a, 'backup-agent']);
      default:
        return [];
    }
  }

  fullReaders(): Set<string> {
    const readers = new Set<string>(this.panel);
    if (this.client !== undefined) readers.add(this.client);
    if (this.worker !== undefined) readers.add(this.worker);
    return readers;
  }
}

function eventEntries(
  e: ContractEvent,
  i: number,
  parties: Parties,
  publicForm: () => Record<string, unknown>,
): NewFeedEntry[] {
  const base = { contractId: e.contractId, type: 'contract.event' as const, at: e.at };
  const full = parties.fullReaders();
  const entries: NewFeedEntry[] = [...full].map((agent) => ({
    ...base,
    agent,
    dedup: `e:${e.contractId}:${i}:${agent}`,
    event: { ...e },
  }));
  if (e.type === 'contract.message-rejected') return entries;
  for (const bidder of parties.bidders) {
    if (full.has(bidder)) continue;
    const own = e.type === 'contract.quote-received' && e.actor === bidder;
    if (!own && !BIDDER_EVENTS.has(e.type)) continue;
    entries.push({ ...base, agent: bidder, dedup: `e:${e.contractId}:${i}:${bidder}`, event: publicForm() });
  }
  return entries;
}

function seatEntries(e: ContractEvent, i: number): NewFeedEntry[] {
  if (e.type === 'contract.created' && e.worker !== undefined) {
    return [
      {
        agent: e.worker,
        contractId: e.contractId,
        type: 'agent.named',
        at: e.at,
        role: 'worker',
        nextAction: { action: 'accept', deadline: e.deadlines.match },
        dedup: `named:${e.contractId}:${e.worker}`,
      },
    ];
  }
  if (e.type === 'contract.panel-drawn') {
    return e.panel.map((agent) => ({
      agent,
      contractId: e.contractId,
      type: 'agent.drawn' as const,
      at: e.at,
      role: 'backup-agent' as const,
      nextAction: { action: 'vote' as const, deadline: e.votingDeadline },
      dedup: `drawn:${e.contractId}:${i}:${agent}`,
    }));
  }
  return [];
}

/** Reminders due now, and when the next one (or the contract's next deadline) falls. */
function reminders(
  input: ProjectionInput,
  parties: Parties,
): { entries: NewFeedEntry[]; dueAt: number | null } {
  const { view, events, ballotsCast, now, reminderLeadMs } = input;
  const entries: NewFeedEntry[] = [];
  let dueAt = view.nextDeadline === null ? null : Date.parse(view.nextDeadline.at);
  for (const agent of parties.fullReaders()) {
    const next = nextAction({ view, events, ballotsCast, agent, now });
    if (next === null) continue;
    const remindAt = Date.parse(next.deadline) - reminderLeadMs;
    if (remindAt > now) {
      dueAt = dueAt === null ? remindAt : Math.min(dueAt, remindAt);
      continue;
    }
    entries.push({
      agent,
      contractId: view.contractId,
      type: 'agent.reminder',
      at: new Date(now).toISOString(),
      role: roleFor(view, agent),
      nextAction: next,
      dedup: `remind:${view.contractId}:${agent}:${next.action}:${next.deadline}`,
    });
  }
  return { entries, dueAt };
}

function roleFor(view: ContractView, agent: string): AgentRole {
  if (view.client === agent) return 'client';
  if (view.worker === agent) return 'worker';
  return 'backup-agent';
}

export function projectContract(input: ProjectionInput): Projection {
  const { events, from, view } = input;
  const parties = new Parties();
  const entries: NewFeedEntry[] = [];
  const roles: AgentContractRole[] = [];
  let shown: Record<string, unknown>[] | undefined;
  events.forEach((e, i) => {
    const taken = parties.take(e);
    if (i < from) return;
    for (const [agent, role] of taken) roles.push({ agent, role, since: Date.parse(e.at) });
    entries.push(...eventEntries(e, i, parties, () => (shown ??= publicEvents(events))[i]!));
    entries.push(...seatEntries(e, i));
  });
  // Closed once the log read holds the end too (the view may have been read a moment earlier).
  const closed = isTerminal(view.status) && events.some((e) => TERMINAL_EVENTS.has(e.type));
  if (closed) return { entries, roles, closed, dueAt: null };
  const due = reminders(input, parties);
  return { entries: [...entries, ...due.entries], roles, closed, dueAt: due.dueAt };
}
