// What starts a contract's workflow, built from terms the creation rules accepted: one builder for
// POST /contracts and the workflow test harness. The materials' key never enters the workflow (the
// vault holds it); only their address and hash do.
import type { ContractInput } from '../../workflows/definitions';
import type { ContractTerms } from '../../workflows/rules/contract-terms';
import { termsToWire } from '../../workflows/rules/contract-terms-wire';
import { formatUsdc } from '../../workflows/rules/money';
import { paramsToWire, type ProtocolParams } from '../../workflows/rules/params';

export function contractInput(
  contractId: string,
  terms: ContractTerms,
  params: ProtocolParams,
): ContractInput {
  const { supplementaryMaterials: materials, ...wire } = termsToWire(terms);
  return {
    contractId,
    terms: { ...wire, supplementaryMaterials: materials && { uri: materials.uri, sha256: materials.sha256 } },
    params: paramsToWire(params),
  };
}

/** The workflow's static summary in the Temporal UI: kind, money and criteria at a glance. */
export function contractSummary(contractId: string, terms: ContractTerms): string {
  const n = terms.acceptanceCriteria.length;
  const money = terms.contractType === 'auction' ? 'budget' : 'price';
  return `${terms.code} contract ${contractId}: ${money} ${formatUsdc(terms.amount)} USDC, ${n} criteri${n === 1 ? 'on' : 'a'}`;
}
