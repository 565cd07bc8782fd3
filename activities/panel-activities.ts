// Activities of the Backup Agent panel: hold a drawn panel's seats in the ledger (all or none), record
// it in the panel registry, and close it with its vote rows at the tally. The money of the tally goes
// through the ledger activities' `settle` (one atomic batch).
import { isAddress } from '../workflows/rules/address';
import { asActivity, invalid } from './invalid-input';
import type {
  PanelActivities,
  SeatTerms,
  VoteRowWire,
  WaitlistEntryWire,
} from '../workflows/activity-interfaces';
import { seatableAhead } from '../workflows/rules/seats';
import type { Ledger, VoteRecord, WaitingContract } from '../store/ledger';
import { nextSeatable, seatPanel, seatRegistry } from '../store/ledger/seats';

export interface PanelActivityDeps {
  ledger: Ledger;
}

function rowFromWire(row: VoteRowWire, i: number, milestoneIndex: number | null): VoteRecord {
  if (typeof row.reward !== 'string' || !/^(0|[1-9][0-9]*)$/.test(row.reward)) {
    invalid(`rows[${i}].reward`, 'must be a decimal string');
  }
  return { ...row, milestoneIndex, reward: BigInt(row.reward) };
}

function waitingEntry(input: WaitlistEntryWire): WaitingContract {
  if (typeof input.contractId !== 'string' || input.contractId === '')
    invalid('contractId', 'must be a string');
  if (!Number.isSafeInteger(input.since) || input.since < 0) invalid('since', 'must be a time in ms');
  if (!Number.isInteger(input.panelSize) || input.panelSize < 1) invalid('panelSize', 'must be ≥ 1');
  if (!Array.isArray(input.exclude)) invalid('exclude', 'must be an array');
  input.exclude.forEach((a, i) => {
    if (!isAddress(a)) invalid(`exclude[${i}]`, 'must be a 0x + 40 hex address');
  });
  return {
    contractId: input.contractId,
    since: input.since,
    panelSize: input.panelSize,
    exclude: input.exclude.map((a) => a.toLowerCase()),
  };
}

function seatTerms(input: SeatTerms): { baBond: bigint; baEligibilityStake: bigint; minStake: bigint } {
  const positive = (v: unknown, field: string) => {
    if (typeof v !== 'string' || !/^[1-9][0-9]*$/.test(v))
      invalid(field, 'must be a positive decimal string');
    return BigInt(v);
  };
  const minStake = positive(input.minStake, 'minStake');
  return { baBond: positive(input.bond, 'bond'), baEligibilityStake: minStake, minStake };
}

export function createPanelActivities({ ledger }: PanelActivityDeps): PanelActivities {
  const waitlist = () => ledger.panels.waitlist();
  const registry = (minStake: bigint) => seatRegistry(ledger, minStake);

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
      const bond = BigInt(input.bond);
      return asActivity(async () => {
        if (input.queue !== undefined) {
          const me = waitingEntry(input.queue);
          const terms = seatTerms({ bond: input.bond, minStake: input.queue.minStake });
          const ahead = seatableAhead(me, await waitlist(), await registry(terms.minStake), terms);
          if (ahead !== null) {
            await ledger.panels.joinWaitlist(me);
            return { seated: false, short: [], ahead: ahead.contractId };
          }
        }
        const result = await seatPanel(ledger, input.contractId, input.members, bond, voidRounds);
        if (result.seated) await ledger.panels.leaveWaitlist(input.contractId);
        return result;
      });
    },

    /** Puts the contract on the waitlist for seats; its first `since` is kept. */
    async awaitSeats(input: WaitlistEntryWire): Promise<void> {
      const entry = waitingEntry(input);
      await asActivity(() => ledger.panels.joinWaitlist(entry));
    },

    async leaveWaitlist(input: { contractId: string }): Promise<void> {
      await asActivity(() => ledger.panels.leaveWaitlist(input.contractId));
    },

    /** The first waiting contract the registry can seat now, in waiting order, or null. */
    async nextSeatable(input: SeatTerms): Promise<string | null> {
      const terms = seatTerms(input);
      return asActivity(() => nextSeatable(ledger, terms));
    },

    /** Records the seated panel in the registry (the agents' open panels, for their views). */
    async openPanel(input: { contractId: string; members: string[] }): Promise<void> {
      await asActivity(() => ledger.panels.openPanel(input.contractId, input.members));
    },

    /** Stores the tally's vote rows under their milestone and frees the panel's seats (after the resolution batch). */
    async closePanel(input): Promise<void> {
      const { milestoneIndex } = input;
      if (milestoneIndex !== null && (!Number.isSafeInteger(milestoneIndex) || milestoneIndex < 0))
        invalid('milestoneIndex', 'must be null or an index ≥ 0');
      if (!Array.isArray(input.rows)) invalid('rows', 'must be an array');
      const rows = input.rows.map((row, i) => rowFromWire(row, i, milestoneIndex));
      await asActivity(() => ledger.panels.closePanel(input.contractId, rows));
    },

    /** Frees a void round's seats in the registry (its money was posted by the workflow's batch). */
    async closeSeats(input: { contractId: string; members: string[] }): Promise<void> {
      if (!Array.isArray(input.members)) invalid('members', 'must be an array');
      await asActivity(() => ledger.panels.closeSeats(input.contractId, input.members));
    },
  };
}
