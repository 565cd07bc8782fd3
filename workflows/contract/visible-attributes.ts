// The search attributes a contract shows (docs/operations.md "Reading contracts in the Temporal UI"), as one list for both sides: the workflow's
// upsert (observability.ts) and the start request of a new contract (api/contracts/gateway.ts), which
// carries the values the workflow's first publication would upsert, so that upsert is not written.
// Sandbox-safe: no workflow API here.
import type {
  SearchAttributePair,
  SearchAttributeUpdatePair,
  TypedSearchAttributes,
} from '@temporalio/common';
import type { ContractInput } from '../definitions';
import { isAuction, type ContractCode } from '../rules/contract-kinds';
import type { NextDeadline } from '../rules/deadlines';
import {
  clientKey,
  contractCodeKey,
  contractStatusKey,
  nextDeadlineKey,
  awaitingArbiterKey,
  milestoneKey,
  panelPendingKey,
  quoteCountKey,
  workerKey,
} from '../search-attributes';

export interface Visible {
  status: string;
  code: ContractCode;
  client: string;
  worker: string | null;
  next: NextDeadline | null;
  /** Auctions only. */
  quoteCount: number | null;
  /** Only for a contract that ever waited for a full panel (the others never carry these keys). */
  panelWait?: { pending: boolean; arbiter: boolean };
  /** Contracts with milestones only: the current milestone. */
  milestone?: number;
}

export function visibleAttributes(v: Visible): SearchAttributeUpdatePair[] {
  return [
    { key: contractStatusKey, value: v.status },
    { key: contractCodeKey, value: v.code },
    { key: clientKey, value: v.client },
    { key: workerKey, value: v.worker },
    { key: nextDeadlineKey, value: v.next === null ? null : new Date(v.next.at) },
    ...(v.quoteCount === null ? [] : [{ key: quoteCountKey, value: v.quoteCount }]),
    ...(v.milestone === undefined ? [] : [{ key: milestoneKey, value: v.milestone }]),
    ...(v.panelWait === undefined
      ? []
      : [
          { key: panelPendingKey, value: v.panelWait.pending },
          { key: awaitingArbiterKey, value: v.panelWait.arbiter },
        ]),
  ];
}

/**
 * A new contract's start: what its first publication shows once the escrow is held (`created`, the
 * match deadline next, no quote yet), without the values that are null (a start cannot carry them).
 */
export function createdAttributes(input: ContractInput): SearchAttributePair[] {
  const { terms } = input;
  const pairs = visibleAttributes({
    status: 'created',
    code: terms.code,
    client: terms.client,
    worker: terms.worker,
    next: { kind: 'match', at: terms.deadlines.match },
    quoteCount: isAuction(terms) ? 0 : null,
    ...(terms.milestones === undefined ? {} : { milestone: 0 }),
  });
  return pairs.filter((p): p is SearchAttributePair => p.value !== null);
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return (a ?? null) === (b ?? null);
}

/** True when the run was started with exactly these values (an attribute the start left out is null). */
export function startedWith(started: TypedSearchAttributes, pairs: SearchAttributeUpdatePair[]): boolean {
  return pairs.every((p) => same(started.get(p.key), p.value));
}
