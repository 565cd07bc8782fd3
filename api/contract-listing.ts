// GET /contracts (docs/records.md): open contracts from Temporal visibility, closed ones from their
// durable records — one source per status, so a contract is listed once, and a closed one stays
// listed after Temporal's retention. Open contracts come first (visibility's order: newest started
// first), then closed ones (newest closed first). The cursor is opaque to callers: which source the
// next page reads, and where in it (visibility's page token, or the last closed row's key). It is
// sealed with an HMAC under the deployment's secret, so a forged one is refused with a 400 before
// anything of it reaches Temporal (a made-up page token would otherwise be retried there for seconds).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import { optionalTsToDate } from '@temporalio/common/lib/time';
import { z } from 'zod';
import type { ClosedPosition, ContractRecordStore } from '../activities/records';
import { CONTRACT_STATUSES, isTerminal, type ContractStatus } from '../workflows/rules/status';
import { CONTRACT_WORKFLOW_TYPE } from '../workflows/definitions';
import {
  contractCodeKey,
  contractStatusKey,
  nextDeadlineKey,
  quoteCountKey,
} from '../workflows/search-attributes';
import { CONTRACT_CODES } from '../workflows/rules/contract-kinds';
import { badRequest } from './errors';

import type { ListedContract } from './wire';

/** A keyword (search attribute, record column) the workflow wrote from its typed state; else not ours. */
function oneOf<T extends string>(values: readonly T[], value: string | null | undefined): T | undefined {
  return values.find((v) => v === value);
}

export interface ListFilter {
  status?: string;
  contractCodes?: readonly string[];
  limit: number;
  cursor?: string;
}

export interface ContractPage {
  contracts: ListedContract[];
  /** Pass as `cursor` for the next page; null when this page is the last. */
  nextCursor: string | null;
}

const OPEN_STATUSES = CONTRACT_STATUSES.filter((s) => !isTerminal(s));
const TERMINAL_STATUSES = CONTRACT_STATUSES.filter((s) => isTerminal(s));

const cursorSchema = z.discriminatedUnion('source', [
  z.object({ filter: z.string(), source: z.literal('open'), token: z.string() }),
  z.object({
    filter: z.string(),
    source: z.literal('closed'),
    after: z.object({ closedAt: z.string(), contractId: z.string() }).optional(),
  }),
]);
type Cursor = z.infer<typeof cursorSchema>;

/** The filter a cursor was made for: a cursor is refused with another one. */
function filterKey(filter: Omit<ListFilter, 'limit' | 'cursor'>): string {
  return JSON.stringify([filter.status ?? null, filter.contractCodes ?? null]);
}

/** The key that seals cursors, from the deployment's cursor key: every API process derives the same one. */
export function listingCursorKey(cursorKey: Uint8Array): Buffer {
  return createHmac('sha256', cursorKey).update('opencontract contract-list cursor').digest();
}

const seal = (payload: string, key: Buffer) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, 16);

function encodeCursor(cursor: Cursor, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify(cursor)).toString('base64url');
  return `${payload}.${seal(payload, key).toString('base64url')}`;
}

function unsealed(value: string, key: Buffer): unknown {
  const [payload, mac, extra] = value.split('.');
  if (payload === undefined || mac === undefined || extra !== undefined) return undefined;
  const given = Buffer.from(mac, 'base64url');
  const expected = seal(payload, key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function decodeCursor(value: string, filter: string, key: Buffer): Cursor {
  const parsed = cursorSchema.safeParse(unsealed(value, key));
  const refuse = (message: string) =>
    badRequest(`invalid cursor: ${message}`, { fields: [{ field: 'cursor', message }] }, 'invalid_input');
  if (!parsed.success) throw refuse('not a cursor this API gave out');
  if (parsed.data.filter !== filter)
    throw refuse('made for other filters (status, awardMethod, contractType)');
  return parsed.data;
}

function quote(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** The visibility query for open contracts: only those whose escrow is held carry ContractStatus. */
export function openListQuery(filter: Omit<ListFilter, 'limit' | 'cursor'>): string {
  const statuses = filter.status === undefined ? OPEN_STATUSES : [filter.status];
  const clauses = [
    `WorkflowType = ${quote(CONTRACT_WORKFLOW_TYPE)}`,
    `ContractStatus IN (${statuses.map(quote).join(', ')})`,
  ];
  if (filter.contractCodes !== undefined) {
    clauses.push(`ContractCode IN (${filter.contractCodes.map(quote).join(', ')})`);
  }
  return clauses.join(' AND ');
}

async function openPage(
  client: Client,
  filter: Omit<ListFilter, 'limit' | 'cursor'>,
  limit: number,
  token: string,
): Promise<{ contracts: ListedContract[]; token: string | null }> {
  const response = await client.workflowService.listWorkflowExecutions({
    namespace: client.options.namespace,
    query: openListQuery(filter),
    pageSize: limit,
    nextPageToken: Buffer.from(token, 'base64'),
  });
  const contracts: ListedContract[] = [];
  for (const execution of response.executions) {
    const attrs = decodeTypedSearchAttributes(execution.searchAttributes?.indexedFields);
    const status = oneOf(CONTRACT_STATUSES, attrs.get(contractStatusKey));
    if (status === undefined) continue;
    contracts.push({
      contractId: execution.execution!.workflowId!.slice('contract-'.length),
      status,
      contractCode: oneOf(CONTRACT_CODES, attrs.get(contractCodeKey)) ?? null,
      nextDeadline: attrs.get(nextDeadlineKey)?.toISOString() ?? null,
      createdAt: optionalTsToDate(execution.startTime)!.toISOString(),
      closedAt: null,
      quoteCount: attrs.get(quoteCountKey) ?? null,
    });
  }
  const next = response.nextPageToken;
  return { contracts, token: next && next.length > 0 ? Buffer.from(next).toString('base64') : null };
}

export async function listContracts(
  { client, records, cursorKey: key }: { client: Client; records: ContractRecordStore; cursorKey: Buffer },
  { limit, cursor, ...filter }: ListFilter,
): Promise<ContractPage> {
  const filterOf = filterKey(filter);
  const withClosed = filter.status === undefined || isTerminal(filter.status as ContractStatus);
  const withOpen = filter.status === undefined || !isTerminal(filter.status as ContractStatus);
  let position: Cursor =
    cursor === undefined
      ? withOpen
        ? { filter: filterOf, source: 'open', token: '' }
        : { filter: filterOf, source: 'closed' }
      : decodeCursor(cursor, filterOf, key);

  const contracts: ListedContract[] = [];
  if (position.source === 'open') {
    const page = await openPage(client, filter, limit, position.token);
    contracts.push(...page.contracts);
    if (page.token !== null)
      return { contracts, nextCursor: encodeCursor({ ...position, token: page.token }, key) };
    if (!withClosed) return { contracts, nextCursor: null };
    position = { filter: filterOf, source: 'closed' };
    if (contracts.length >= limit) return { contracts, nextCursor: encodeCursor(position, key) };
  }

  const wanted = limit - contracts.length;
  // One row more than the page shows: whether a next page exists, without an empty last page.
  const closed = await records.listClosed({
    statuses: filter.status === undefined ? TERMINAL_STATUSES : [filter.status],
    ...(filter.contractCodes === undefined ? {} : { contractCodes: filter.contractCodes }),
    limit: wanted + 1,
    ...(position.after === undefined ? {} : { after: position.after }),
  });
  const shown = closed.slice(0, wanted);
  for (const row of shown) {
    const status = oneOf(CONTRACT_STATUSES, row.status);
    if (status === undefined) continue;
    const contractCode = oneOf(CONTRACT_CODES, row.contractCode) ?? null;
    contracts.push({ ...row, status, contractCode, nextDeadline: null });
  }
  const last: ClosedPosition | undefined = shown[shown.length - 1];
  const more = closed.length > wanted && last !== undefined;
  return {
    contracts,
    nextCursor: more
      ? encodeCursor(
          {
            filter: filterOf,
            source: 'closed',
            after: { closedAt: last.closedAt, contractId: last.contractId },
          },
          key,
        )
      : null,
  };
}
