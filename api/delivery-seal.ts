// A delivery's key and normalized content reach the vault (write-once) only after the workflow has
// accepted the delivery (docs/security.md): a refused delivery leaves nothing behind, so a corrected
// one can follow. A retry of the accepted delivery (its answer lost, or the vault write after it)
// seals the same values again, which the vault takes as a no-op.
import type { ContractView, DeliverInput } from '../workflows/definitions';
import { canonicalJson, contentSha256, type NormalizedDelivery } from './ingest';
import type { KeyVault } from '../store/vault/sqlite';

/** What the workflow receives: the delivery without its key and content, only their hashes. */
export function deliverInput(caller: string, delivery: NormalizedDelivery): DeliverInput {
  return {
    caller,
    uri: delivery.ref.uri,
    sha256: delivery.ref.sha256,
    contentHash: contentSha256(delivery.content),
    ...(delivery.confidence === undefined ? {} : { confidence: delivery.confidence }),
    ...(delivery.evidence === undefined ? {} : { evidence: delivery.evidence }),
  };
}

/** True when the contract already holds exactly this delivery from this caller (a retry). */
export function isAcceptedDelivery(view: ContractView, input: DeliverInput): boolean {
  const held = view.delivery;
  return (
    held !== null &&
    view.worker === input.caller &&
    held.uri === input.uri &&
    held.sha256 === input.sha256 &&
    held.contentHash === input.contentHash
  );
}

/** Seals the content, in the canonical form its hash is taken over, then the key. */
export async function sealDelivery(vault: KeyVault, contractId: string, delivery: NormalizedDelivery) {
  await vault.putContent(contractId, 'delivery', canonicalJson(delivery.content));
  await vault.put(contractId, 'delivery', delivery.key);
}
