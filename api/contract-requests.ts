// What the /contracts/{id} routes share: the 404 for an id that names no contract, and the Update ID
// an Idempotency-Key derives.
import type { Context } from 'hono';
import type { ContractView } from '../workflows/definitions';
import { isContractId, keyToken } from './contract-ids';
import type { ApiContext } from './deps';
import { notFound } from './errors';
import { IDEMPOTENCY_HEADER } from './idempotency';

/** 404 for any id that is not a contract's, whatever its form; the view otherwise. */
export async function existingContract(ctx: ApiContext, id: string): Promise<ContractView> {
  const view = isContractId(id) ? await ctx.contracts.view(id) : undefined;
  if (view === undefined) throw notFound(`no contract ${id}`, undefined, 'contract_not_found');
  return view;
}

/**
 * With an Idempotency-Key the Update gets an ID derived from it, so a retry after a lost answer
 * (a 5xx frees the key) reaches Temporal as the same Update and takes effect once.
 */
export function updateId(c: Context, caller: string): string | undefined {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  return key === undefined ? undefined : `api-${keyToken(caller, c.req.method, c.req.path, key)}`;
}
