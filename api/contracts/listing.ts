// GET /contracts (docs/records.md): every contract from the read model, open ones first (newest
// created first), then closed ones (newest closed first) — one source per status, so a contract is
// listed once, and a closed one stays listed after Temporal's retention. The cursor is opaque to
// callers: which part the next page reads and the last row's key there. It is sealed with an HMAC
// under the deployment's secret, so a forged one is refused with a 400.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ClosedPosition, ContractRecordStore, ListedRow, OpenPosition } from '../../store/records';
import { CONTRACT_STATUSES, isTerminal, type ContractStatus } from '../../workflows/rules/status';
import { CONTRACT_CODES } from '../../workflows/rules/contract-kinds';
import { badRequest } from '../errors';

import type { ListedContract } from '../openapi/wire';

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
  z.object({
    filter: z.string(),
    source: z.literal('open'),
    after: z.object({ createdAt: z.string(), contractId: z.string() }).optional(),
  }),
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

/** A row of the read model as listed; undefined for a status or code this service never wrote. */
function listed(row: ListedRow): ListedContract | undefined {
  const status = oneOf(CONTRACT_STATUSES, row.status);
  if (status === undefined) return undefined;
  return { ...row, status, contractCode: oneOf(CONTRACT_CODES, row.contractCode) ?? null };
}

export async function listContracts(
  { records, cursorKey: key }: { records: ContractRecordStore; cursorKey: Buffer },
  { limit, cursor, ...filter }: ListFilter,
): Promise<ContractPage> {
  const filterOf = filterKey(filter);
  const withClosed = filter.status === undefined || isTerminal(filter.status as ContractStatus);
  const withOpen = filter.status === undefined || !isTerminal(filter.status as ContractStatus);
  let position: Cursor =
    cursor === undefined
      ? withOpen
        ? { filter: filterOf, source: 'open' }
        : { filter: filterOf, source: 'closed' }
      : decodeCursor(cursor, filterOf, key);
  const codes = filter.contractCodes === undefined ? {} : { contractCodes: filter.contractCodes };

  const contracts: ListedContract[] = [];
  if (position.source === 'open') {
    // One row more than the page shows: whether a next page exists, without an empty last page.
    const open = await records.listOpen({
      statuses: filter.status === undefined ? OPEN_STATUSES : [filter.status],
      ...codes,
      limit: limit + 1,
      ...(position.after === undefined ? {} : { after: position.after }),
    });
    const shown = open.slice(0, limit);
    contracts.push(...shown.map(listed).filter((c) => c !== undefined));
    const last: OpenPosition | undefined = shown[shown.length - 1];
    if (open.length > limit && last !== undefined) {
      const after = { createdAt: last.createdAt, contractId: last.contractId };
      return { contracts, nextCursor: encodeCursor({ filter: filterOf, source: 'open', after }, key) };
    }
    if (!withClosed) return { contracts, nextCursor: null };
    position = { filter: filterOf, source: 'closed' };
    if (contracts.length >= limit) return { contracts, nextCursor: encodeCursor(position, key) };
  }

  const wanted = limit - contracts.length;
  const closed = await records.listClosed({
    statuses: filter.status === undefined ? TERMINAL_STATUSES : [filter.status],
    ...codes,
    limit: wanted + 1,
    ...(position.after === undefined ? {} : { after: position.after }),
  });
  const shown = closed.slice(0, wanted);
  contracts.push(...shown.map(listed).filter((c) => c !== undefined));
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
