// Activities of the Backup Agent panel: hold a drawn panel's seats in the ledger (all or none), record
// it in the panel registry, and close it with its vote rows at the tally. The money of the tally goes
// through the ledger activities' `settle` (one atomic batch).
import { isAddress } from '../workflows/rules/address';
import { asActivity, invalid } from './invalid-input';
import type { PanelActivities, VoteRowWire } from '../workflows/activity-interfaces';
import type { Ledger, VoteRecord } from './ledger';
import { seatPanel } from './ledger/seats';

export interface PanelActivityDeps {
  ledger: Ledger;
}

function rowFromWire(row: VoteRowWire, i: number): VoteRecord {
  if (typeof row.reward !== 'string' || !/^(0|[1-9][0-9]*)$/.test(row.reward)) {
    invalid(`rows[${i}].reward`, 'must be a decimal string');
  }
  return { ...row, reward: BigInt(row.reward) };
}

export function createPanelActivities({ ledger }: PanelActivityDeps): PanelActivities {
  return {
    /**
     * Holds each drawn member's seat (`bond` of its free eligibility stake, hold
     * `<contractId>:ba-bond:<address>`), all or none: `short` names the members whose free stake no
     * longer covers it (an unlock won the race), so the workflow draws again.
     */
    async seatPanel(input) {
      if (!Array.isArray(input.members) || input.members.length === 0)
        invalid('members', 'must be a non-empty array');
      input.members.forEach((m, i) => {
        if (!isAddress(m)) invalid(`members[${i}]`, 'must be a 0x + 40 hex address');
      });
      if (typeof input.bond !== 'string' || !/^[1-9][0-9]*$/.test(input.bond))
        invalid('bond', 'must be a positive decimal string');
      const voidRounds = input.voidRounds ?? 0;
      if (!Number.isInteger(voidRounds) || voidRounds < 0) invalid('voidRounds', 'must be a whole number');
      return asActivity(() =>
        seatPanel(ledger, input.contractId, input.members, BigInt(input.bond), voidRounds),
      );
    },

    /** Records the seated panel in the registry (the agents' open panels, for their views). */
    async openPanel(input: { contractId: string; members: string[] }): Promise<void> {
      await asActivity(() => ledger.panels.openPanel(input.contractId, input.members));
    },

    /** Stores the tally's vote rows and frees the panel's seats (after the resolution batch). */
    async closePanel(input: { contractId: string; rows: VoteRowWire[] }): Promise<void> {
      if (!Array.isArray(input.rows)) invalid('rows', 'must be an array');
      const rows = input.rows.map(rowFromWire);
      await asActivity(() => ledger.panels.closePanel(input.contractId, rows));
    },

    /** Frees a void round's seats in the registry (its money was posted by the workflow's batch). */
    async closeSeats(input: { contractId: string; members: string[] }): Promise<void> {
      if (!Array.isArray(input.members)) invalid('members', 'must be an array');
      await asActivity(() => ledger.panels.closeSeats(input.contractId, input.members));
    },
  };
}
