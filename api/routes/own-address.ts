// The `:address` of an agent's own resources (balances, withdrawals): a valid address, the caller's.
import { isAddress } from '../../workflows/rules/address';
import { badRequest, forbidden } from '../errors';

export function pathAddress(param: string): string {
  if (!isAddress(param)) throw badRequest('address must be 0x + 40 hex', undefined, 'invalid_input');
  return param.toLowerCase();
}

export function ownAddress(param: string, caller: string, what: string): string {
  const address = pathAddress(param);
  if (address !== caller)
    throw forbidden(`an agent reads and moves only its own ${what}`, undefined, 'not_allowed');
  return address;
}
