// A verdict on one acceptance criterion, as voted by a BA and as recorded in Criteria Met.

export const VERDICTS = ['met', 'not met', 'unclear'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface CriteriaCounts {
  total: number;
  met: number;
  notMet: number;
  unclear: number;
  /** total − unclear: the criteria that count in the payment ratio. */
  resolved: number;
}

export function countVerdicts(criteriaMet: readonly Verdict[]): CriteriaCounts {
  const count = (v: Verdict) => criteriaMet.filter((x) => x === v).length;
  const unclear = count('unclear');
  return {
    total: criteriaMet.length,
    met: count('met'),
    notMet: count('not met'),
    unclear,
    resolved: criteriaMet.length - unclear,
  };
}
