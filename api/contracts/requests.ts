// What the /contracts/{id} routes share: the 404 for an id that names no contract, and the Update ID
// an Idempotency-Key derives.
import type { Context } from 'hono';
import type { ContractView } from '../../workflows/definitions';
import { isContractId, keyToken } from './ids';
import type { ContractContext } from './context';
import { contractNotFound } from '../errors';
import { IDEMPOTENCY_HEADER } from '../http/idempotency';

/** What `read` finds under a contract id: 404 for an id that is not a contract's, whatever its form. */
export async function fromContract<T>(id: string, read: (id: string) => Promise<T | undefined>): Promise<T> {
  const found = isContractId(id) ? await read(id) : undefined;
  if (found === undefined) throw contractNotFound(id);
  return found;
}

/**
 * The id, when it has a contract id's form; 404 otherwise. For the routes that send an Update: one
 * sent to a contract that does not exist is answered 404 by the error mapping.
 */
export function contractIdOf(id: string): string {
  if (!isContractId(id)) throw contractNotFound(id);
  return id;
}

/** The contract's view; 404 for an id that names no contract. */
export function existingContract(ctx: ContractContext, id: string): Promise<ContractView> {
  return fromContract(id, (contractId) => ctx.contracts.view(contractId));
}

/**
 * With an Idempotency-Key the Update gets an ID derived from it, so a retry after a lost answer
 * (a 5xx frees the key) reaches Temporal as the same Update and takes effect once.
 */
export function updateId(c: Context, caller: string): string | undefined {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  return key === undefined ? undefined : `api-${keyToken(caller, c.req.method, c.req.path, key)}`;
}
