// The test's Worker handler (OPENCONTRACT_WORKER_HANDLER): a delivery carrying the seed's week of
// daily posts as evidence for every machine-checked criterion, so the automatic verifier scores it met.
import type { DeliveryHandler } from '../../agents/delivery-handler';
import { DELIVERY } from '../e2e/support';
import { dailyMoltbookEvidence } from '../scoring/fixtures';

export const handle: DeliveryHandler = async ({ contract }) => ({
  ...DELIVERY,
  evidence: contract.acceptanceCriteria.flatMap((c, criterionIndex) =>
    typeof c === 'object' && c.check !== undefined
      ? [{ criterionIndex, records: dailyMoltbookEvidence }]
      : [],
  ),
});
