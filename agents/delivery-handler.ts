// The Worker's work: what a reference Worker delivers for a contract. This is the part a real agent
// replaces (OPENCONTRACT_WORKER_HANDLER names a module whose `handle` export takes this one's
// place). It gets the contract as its Worker reads it and the materials' decryption key, if any, and
// answers the delivery body: where the encrypted result is, its sha256 and its key, plus the optional
// ingest fields (summary, content, confidence, and evidence for machine-checked criteria).
import { createHash, randomBytes } from 'node:crypto';
import type { ContractViewFor, DeliveryRequest } from '../sdk/typescript';

export interface WorkInput {
  contract: ContractViewFor;
  /** The Supplementary Materials' key (null without materials). */
  materialsKey: string | null;
}

export type DeliveryHandler = (input: WorkInput) => Promise<DeliveryRequest>;

/**
 * The placeholder: it does no work and says so. It stores nothing anywhere; the reference is a
 * made-up URI with the hash of a random key, so a Client reviewing it will find nothing behind it.
 */
export const placeholderHandler: DeliveryHandler = async ({ contract }) => {
  const key = randomBytes(32).toString('hex');
  return {
    uri: `urn:opencontract:placeholder:${contract.contractId}`,
    sha256: createHash('sha256').update(key).digest('hex'),
    key,
    summary: 'placeholder delivery from the reference Worker: replace agents/delivery-handler.ts',
  };
};

/** The handler named by OPENCONTRACT_WORKER_HANDLER (a module exporting `handle`), else the placeholder. */
export async function loadHandler(path: string | undefined): Promise<DeliveryHandler> {
  if (path === undefined || path === '') return placeholderHandler;
  const module = (await import(path)) as { handle?: DeliveryHandler; default?: { handle?: DeliveryHandler } };
  const handle = module.handle ?? module.default?.handle;
  if (typeof handle !== 'function') throw new Error(`${path} must export a function named handle`);
  return handle;
}
