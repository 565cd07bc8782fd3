// A confidence (docs/protocol.md §5, §10): a number in [0, 1]. One rule for the API's delivery ingest and the
// workflow's deliver validator, so ingest never lets through what the workflow would refuse.
export const CONFIDENCE_RULE = 'must be a number in [0, 1]';

export function isConfidence(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}
