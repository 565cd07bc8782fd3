// Agent addresses: the format (address-format.ts) and the schema that parses one in a request body.
import { z } from 'zod';
import { ADDRESS_RE, type Address } from './address-format';

export * from './address-format';

export const addressSchema = z
  .string({ error: 'must be an address (0x + 40 hex)' })
  .regex(ADDRESS_RE, 'must be an address (0x + 40 hex)')
  .transform((s) => s.toLowerCase() as Address);
