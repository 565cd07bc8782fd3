// What an operator sees in the Temporal UI without the payload codec: typed search attributes and
// the current details. Content-free: IDs, addresses, statuses, amounts and deadlines only.
import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { formatUsdc } from '../rules/money';
import { contractSearchAttributes } from '../search-attributes';
import { isAuction, type ContractCode, type ContractType } from '../rules/contract-kinds';
import { startedWith, visibleAttributes } from './visible-attributes';
import type { NextDeadline } from '../rules/deadlines';

/** What publishing reads and writes of the contract's state (state.ts's Contract is one). */
export interface Published {
  readonly created: boolean;
  readonly contractId: string;
  readonly status: string;
  readonly terms: { code: ContractCode; client: string; contractType: ContractType };
  readonly escrowedFunds: bigint;
  readonly match: {
    readonly worker: string | null;
    readonly stake: { amount: bigint } | null;
    readonly quotes: readonly unknown[];
  };
  readonly work: { readonly delivery: { sha256: string } | null };
  readonly settlement: { readonly criteriaMet: readonly string[] | null; readonly payment: bigint | null };
  /** Set once the contract waited for a full panel (rules/recruitment). */
  readonly panel: { readonly recruitment: { since: number; retryAt: number } | null };
  readonly panelPending: boolean;
  readonly awaitingArbiter: boolean;
  /** Contracts with milestones: the one being worked. */
  readonly milestone: { readonly index: number; readonly plan: readonly unknown[] } | null;
  nextDeadline(now: number): NextDeadline | null;
  readonly publication: Publication;
}

/** Publishing's own bookkeeping, kept on the contract and changed only here. */
export interface Publication {
  /** What publish last sent, so an unchanged view is not upserted again. */
  key: string;
  /** A change is waiting for the main loop to publish it (it wakes the loop). */
  pending: boolean;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function details(c: Published, next: { kind: string; at: number } | null): string {
  const { worker, stake, quotes } = c.match;
  const { delivery } = c.work;
  const { criteriaMet, payment } = c.settlement;
  const { recruitment } = c.panel;
  const rows: [string, string][] = [
    ['Status', `\`${c.status}\``],
    ['Code', c.terms.code],
    ['Client', c.terms.client],
    ['Worker', worker ?? '—'],
    ['Escrowed Funds', `${formatUsdc(c.escrowedFunds)} USDC`],
    ['Worker Stake', stake === null ? '—' : `${formatUsdc(stake.amount)} USDC`],
    ['Next deadline', next === null ? '—' : `${next.kind} at ${iso(next.at)}`],
  ];
  if (isAuction(c.terms)) rows.push(['Quotes', String(quotes.length)]);
  if (delivery !== null) rows.push(['Delivery sha256', delivery.sha256]);
  if (c.panelPending && recruitment !== null) {
    rows.push(['Panel', `pending since ${iso(recruitment.since)}, next draw ${iso(recruitment.retryAt)}`]);
  }
  if (c.awaitingArbiter) rows.push(['Panel', 'none seated: **awaiting the trusted arbiter**']);
  if (c.milestone !== null)
    rows.push(['Milestone', `${c.milestone.index + 1} of ${c.milestone.plan.length}`]);
  if (criteriaMet !== null) rows.push(['Criteria Met', criteriaMet.join(', ')]);
  if (payment !== null) rows.push(['Payment', `${formatUsdc(payment)} USDC`]);
  return [
    `**Contract ${c.contractId}**`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
  ].join('\n');
}

/**
 * At a change of state: the main loop publishes once, when it waits (publishNow), so a workflow task
 * makes at most one upsert.
 */
export function publish(c: Published): void {
  c.publication.pending = true;
}

/**
 * Upserts the search attributes and sets the current details when something an operator sees
 * changed (each upsert is a history event, so unchanged values are not sent again).
 */
export function publishNow(c: Published): void {
  c.publication.pending = false;
  if (!c.created) return;
  const next = c.nextDeadline(Date.now());
  const { worker, quotes } = c.match;
  const { recruitment } = c.panel;
  const visible: unknown[] = [
    c.status,
    worker,
    next,
    c.settlement.criteriaMet,
    c.settlement.payment?.toString(),
  ];
  // Auctions also show how many bidders quoted; fixed-price contracts upsert exactly what they always did.
  if (isAuction(c.terms)) visible.push(quotes.length);
  const panelWait =
    recruitment === null ? undefined : { pending: c.panelPending, arbiter: c.awaitingArbiter };
  if (panelWait !== undefined) visible.push(panelWait, recruitment!.retryAt);
  if (c.milestone !== null) visible.push(c.milestone.index);
  const key = JSON.stringify(visible);
  if (key === c.publication.key) return;
  const first = c.publication.key === '';
  c.publication.key = key;
  const attributes = visibleAttributes({
    status: c.status,
    code: c.terms.code,
    client: c.terms.client,
    worker,
    next,
    quoteCount: isAuction(c.terms) ? quotes.length : null,
    ...(panelWait === undefined ? {} : { panelWait }),
    ...(c.milestone === null ? {} : { milestone: c.milestone.index }),
  });
  // A contract started with these values (api/contracts/gateway.ts) shows them already: no upsert.
  // Read from the history's first event, so a replay decides alike; older runs started without them.
  if (!(first && startedWith(workflowInfo().typedSearchAttributes, attributes)))
    upsertSearchAttributes(attributes);
  setCurrentDetails(details(c, next));
}

/**
 * A contract whose escrow the ledger refused was never created: a start that carried its first search
 * attributes takes them back, so the listing (it lists contracts carrying ContractStatus) and the
 * operator's UI never show it. One upsert, on this path only; older runs started without them.
 */
export function withdrawStartAttributes(): void {
  const ours = new Set<string>(contractSearchAttributes.map((k) => k.name));
  const carried = workflowInfo()
    .typedSearchAttributes.getAll()
    .filter((p) => ours.has(p.key.name));
  if (carried.length === 0) return;
  upsertSearchAttributes(carried.map((p) => ({ ...p, value: null }) as SearchAttributeUpdatePair));
}
