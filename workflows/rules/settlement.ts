// Settlement (docs/protocol.md §7a) and the cancellations (§5, §6): how each hold is split between the roles.
import { assertAmount, ratio } from './money';
import type { ProtocolParams } from './params';
import { returnHold, splitByBps, splitHold, type HoldSplit } from './holds';
import {
  cancelledStatus,
  settledStatus,
  type CancellationReason,
  type CancelledStatus,
  type SettledStatus,
  type SettlementTier,
} from './status';
import { countVerdicts, type CriteriaCounts, type Verdict } from './verdicts';

export interface ContractHolds {
  escrow: bigint;
  /** Null before a Worker is matched. */
  workerStake: bigint | null;
  /** Null unless the Client disputed. */
  disputeBond: bigint | null;
}

export interface Settlement {
  status: SettledStatus;
  tier: SettlementTier;
  counts: CriteriaCounts;
  /** The Worker's share of the escrow. */
  payment: bigint;
  holds: HoldSplit[];
}

export interface Cancellation {
  status: CancelledStatus;
  holds: HoldSplit[];
}

/** floor(escrow × met / resolved); the whole escrow when no criterion is resolved. */
export function paymentFor(escrow: bigint, counts: Pick<CriteriaCounts, 'met' | 'resolved'>): bigint {
  return counts.resolved === 0 ? escrow : ratio(escrow, counts.met, counts.resolved);
}

export function tierFor(counts: Pick<CriteriaCounts, 'met' | 'resolved'>): SettlementTier {
  if (counts.met === counts.resolved) return 'fully-met';
  return counts.met === 0 ? 'none-met' : 'partially-met';
}

export function settlementFor(
  holds: ContractHolds,
  criteriaMet: readonly Verdict[],
  params: ProtocolParams,
): Settlement {
  if (criteriaMet.length === 0) throw new RangeError('criteriaMet must have one entry per criterion');
  if (holds.workerStake === null) throw new RangeError('a settled contract has a Worker Stake');
  const counts = countVerdicts(criteriaMet);
  const tier = tierFor(counts);
  const payment = paymentFor(holds.escrow, counts);
  const splits: HoldSplit[] = [
    splitHold('escrow', holds.escrow, [
      { role: 'worker', amount: payment },
      { role: 'client', amount: holds.escrow - payment },
    ]),
    tier === 'none-met'
      ? splitByBps('workerStake', holds.workerStake, params.absentSlashClientBps, 'client', 'treasury')
      : returnHold('workerStake', holds.workerStake),
  ];
  if (holds.disputeBond !== null) {
    // A dispute against a fully met delivery was unfounded; otherwise it was upheld.
    splits.push(
      tier === 'fully-met'
        ? splitHold('disputeBond', holds.disputeBond, [{ role: 'treasury', amount: holds.disputeBond }])
        : returnHold('disputeBond', holds.disputeBond),
    );
  }
  return { status: settledStatus(tier), tier, counts, payment, holds: splits };
}

/**
 * by-client / unmatched: no Worker Stake exists, the escrow is refunded.
 * withdrawn: withdrawalSlashBps of the stake to the Client (rounded down), the rest back to the Worker.
 * absent: the whole stake slashed, absentSlashClientBps to the Client (rounded down), the rest to the Treasury.
 * by-operator: every hold back to its owner (the operator's release of a stuck contract).
 * The escrow is refunded in every case.
 */
export function cancellationFor(
  reason: CancellationReason,
  holds: Pick<ContractHolds, 'escrow' | 'workerStake'> & { disputeBond?: bigint | null },
  params: ProtocolParams,
): Cancellation {
  assertAmount(holds.escrow, 'escrow');
  if (reason === 'by-operator') return releaseAll(holds);
  const splits: HoldSplit[] = [returnHold('escrow', holds.escrow)];
  const matched = reason === 'withdrawn' || reason === 'absent';
  if (matched !== (holds.workerStake !== null)) {
    throw new RangeError(
      `a ${cancelledStatus(reason)} contract ${matched ? 'must' : 'cannot'} hold a Worker Stake`,
    );
  }
  if (holds.workerStake !== null) {
    splits.push(
      reason === 'withdrawn'
        ? splitByBps('workerStake', holds.workerStake, params.withdrawalSlashBps, 'client', 'worker')
        : splitByBps('workerStake', holds.workerStake, params.absentSlashClientBps, 'client', 'treasury'),
    );
  }
  return { status: cancelledStatus(reason), holds: splits };
}

function releaseAll(
  holds: Pick<ContractHolds, 'escrow' | 'workerStake'> & { disputeBond?: bigint | null },
): Cancellation {
  const splits = [returnHold('escrow', holds.escrow)];
  if (holds.workerStake !== null) splits.push(returnHold('workerStake', holds.workerStake));
  if (holds.disputeBond != null) splits.push(returnHold('disputeBond', holds.disputeBond));
  return { status: cancelledStatus('by-operator'), holds: splits };
}
