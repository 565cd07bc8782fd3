// What an operator sees in the Temporal UI without the payload codec: typed search attributes and
// the current details. Content-free: IDs, addresses, statuses, amounts and deadlines only.
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { formatUsdc } from '../rules/money';
import {
  clientKey,
  contractCodeKey,
  contractStatusKey,
  nextDeadlineKey,
  quoteCountKey,
  workerKey,
} from '../search-attributes';
import type { Contract } from './state';

const isAuction = (c: Contract): boolean => c.terms.contractType === 'auction';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function details(c: Contract, next: { kind: string; at: number } | null): string {
  const rows: [string, string][] = [
    ['Status', `\`${c.status}\``],
    ['Code', c.terms.code],
    ['Client', c.terms.client],
    ['Worker', c.worker ?? '—'],
    ['Escrowed Funds', `${formatUsdc(c.escrowedFunds)} USDC`],
    ['Worker Stake', c.stake === null ? '—' : `${formatUsdc(c.stake.amount)} USDC`],
    ['Next deadline', next === null ? '—' : `${next.kind} at ${iso(next.at)}`],
  ];
  if (isAuction(c)) rows.push(['Quotes', String(c.quotes.length)]);
  if (c.delivery !== null) rows.push(['Delivery sha256', c.delivery.sha256]);
  if (c.criteriaMet !== null) rows.push(['Criteria Met', c.criteriaMet.join(', ')]);
  if (c.payment !== null) rows.push(['Payment', `${formatUsdc(c.payment)} USDC`]);
  return [
    `**Contract ${c.contractId}**`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map(([k, v]) => `| ${k} | ${v} |`),
  ].join('\n');
}

/**
 * Upserts the search attributes and sets the current details when something an operator sees
 * changed (each upsert is a history event, so unchanged values are not sent again).
 */
export function publish(c: Contract): void {
  if (!c.created) return;
  const next = c.nextDeadline(Date.now());
  const visible: unknown[] = [c.status, c.worker, next, c.criteriaMet, c.payment?.toString()];
  // Auctions also show how many bidders quoted; fixed-price contracts upsert exactly what they always did.
  if (isAuction(c)) visible.push(c.quotes.length);
  const key = JSON.stringify(visible);
  if (key === c.publishedKey) return;
  c.publishedKey = key;
  upsertSearchAttributes([
    { key: contractStatusKey, value: c.status },
    { key: contractCodeKey, value: c.terms.code },
    { key: clientKey, value: c.terms.client },
    { key: workerKey, value: c.worker },
    { key: nextDeadlineKey, value: next === null ? null : new Date(next.at) },
    ...(isAuction(c) ? [{ key: quoteCountKey, value: c.quotes.length }] : []),
  ]);
  setCurrentDetails(details(c, next));
}
