// Activities of the Backup Agent panel (docs/protocol.md §8) besides the money: seat a drawn panel in the registry
// (so the API refuses its members' eligibility unlock), close it with its vote rows at the tally, and
// read the eligibility holds a non-voter's slashed slices are taken from. The money of the tally goes
// through the ledger activities' `settle` (one atomic batch).
import { isAddress } from '../workflows/rules/address';
import { asActivity, invalid } from './invalid-input';
import { agentOwner, type Ledger, type VoteRecord } from './ledger';

export interface PanelActivityDeps {
  ledger: Ledger;
}

/** A vote row on the wire: reward as a decimal string of OCT minor units. */
export interface VoteRowWire extends Omit<VoteRecord, 'reward'> {
  reward: string;
}

export interface EligibilityHoldsOf {
  address: string;
  /** The agent's open eligibility holds, oldest first. */
  holds: Array<{ holdId: string; amount: string }>;
}

function rowFromWire(row: VoteRowWire, i: number): VoteRecord {
  if (typeof row.reward !== 'string' || !/^(0|[1-9][0-9]*)$/.test(row.reward)) {
    invalid(`rows[${i}].reward`, 'must be a decimal string');
  }
  return { ...row, reward: BigInt(row.reward) };
}

export function createPanelActivities({ ledger }: PanelActivityDeps) {
  return {
    /** Seats the drawn panel: its members cannot unlock their eligibility stake until it closes. */
    async openPanel(input: { contractId: string; members: string[] }): Promise<void> {
      await asActivity(() => ledger.panels.openPanel(input.contractId, input.members));
    },

    /** Stores the tally's vote rows and frees the panel's seats (after the resolution batch). */
    async closePanel(input: { contractId: string; rows: VoteRowWire[] }): Promise<void> {
      if (!Array.isArray(input.rows)) invalid('rows', 'must be an array');
      const rows = input.rows.map(rowFromWire);
      await asActivity(() => ledger.panels.closePanel(input.contractId, rows));
    },

    /** Each agent's open eligibility holds: what a non-voter's slashed slices are taken from. */
    async eligibilityHolds(input: { addresses: string[] }): Promise<EligibilityHoldsOf[]> {
      if (!Array.isArray(input.addresses)) invalid('addresses', 'must be an array');
      return Promise.all(
        input.addresses.map(async (address, i) => {
          if (!isAddress(address)) invalid(`addresses[${i}]`, 'must be a 0x + 40 hex address');
          const holds = await ledger.holdsOf(agentOwner(address), { kind: 'eligibility', open: true });
          return {
            address: address.toLowerCase(),
            holds: holds.map((h) => ({ holdId: h.id, amount: h.amount.toString() })),
          };
        }),
      );
    },
  };
}

export type PanelActivities = ReturnType<typeof createPanelActivities>;
