// A delivery's key and normalized content reach the vault (write-once) only after the workflow has
// accepted the delivery (docs/security.md): a refused delivery leaves nothing behind, so a corrected
// one can follow. A retry of the accepted delivery (its answer lost, or the vault write after it)
// seals the same values again, which the vault takes as a no-op.
import type { ContractView, DeliverInput } from '../../workflows/definitions';
import { canonicalJson, contentSha256, type NormalizedDelivery } from '../ingest';
import type { KeyVault } from '../../store/vault/sqlite';

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

/**
 * True when the contract already holds exactly this delivery from this caller (a retry). Not while
 * `matched`: after a change request the same delivery may be sent again, and that is a redelivery.
 */
export function isAcceptedDelivery(view: ContractView, input: DeliverInput): boolean {
  const held = view.delivery;
  return (
    held !== null &&
    view.status !== 'matched' &&
    view.worker === input.caller &&
    held.uri === input.uri &&
    held.sha256 === input.sha256 &&
    held.contentHash === input.contentHash
  );
}

/**
 * Where a delivery's key and content are kept: each round (a redelivery after a change request) has its
 * own write-once record, the first one under the contract's own id.
 */
export function deliveryVaultId(contractId: string, round: number): string {
  return round === 0 ? contractId : `${contractId}#r${round}`;
}

/** The vault id of the delivery the view holds (the one its key and content are read for). */
export function heldDeliveryVaultId(view: Pick<ContractView, 'contractId' | 'delivery'>): string {
  return deliveryVaultId(view.contractId, view.delivery?.round ?? 0);
}

/**
 * Seals the content, in the canonical form its hash is taken over, then the key, under the round of
 * the delivery the answered view holds.
 */
export async function sealDelivery(vault: KeyVault, view: ContractView, delivery: NormalizedDelivery) {
  const id = heldDeliveryVaultId(view);
  await vault.putContent(id, 'delivery', canonicalJson(delivery.content));
  await vault.put(id, 'delivery', delivery.key);
}
