// The test's Worker handler (OPENCONTRACT_WORKER_HANDLER): a delivery carrying the seed's week of
// daily posts as evidence for every machine-checked criterion, so the automatic verifier scores it met.
// With EVIDENCE_HANDLER_HOLD_MS it works that long first, so a test can kill the Worker mid-work, before
// anything is delivered.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryHandler } from '../../agents/delivery-handler';
import { DELIVERY } from '../e2e/support';
import { dailyMoltbookEvidence } from '../scoring/fixtures';

export const handle: DeliveryHandler = async ({ contract }) => {
  await sleep(Number(process.env.EVIDENCE_HANDLER_HOLD_MS ?? 0));
  return {
    ...DELIVERY,
    evidence: contract.acceptanceCriteria.flatMap((c, criterionIndex) =>
      typeof c === 'object' && c.check !== undefined
        ? [{ criterionIndex, records: dailyMoltbookEvidence }]
        : [],
    ),
  };
};
