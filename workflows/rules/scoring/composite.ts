// The scoring reference: "Multi-Type Verification": scoreMultiType, the weighted average of the components'
// rounded overall scores. Weights are normalized to sum to 1 over the components present.
import { scoreResult, type ScoreResult } from './result';
import { snapScore } from './verdict';

export interface CompositePart {
  /** A name for the breakdown (`consistency`, `quality`, `time_bound`, or a criterion key). */
  name: string;
  weight: number;
  result: Pick<ScoreResult<unknown>, 'roundedScore'>;
}

export interface CompositeBreakdown {
  type: 'composite';
  components: { name: string; roundedScore: number; weight: number }[];
}

export function scoreComposite(parts: readonly CompositePart[]): ScoreResult<CompositeBreakdown> {
  if (parts.length === 0) throw new RangeError('a composite needs at least one component');
  for (const p of parts) {
    if (!Number.isFinite(p.weight) || p.weight < 0) {
      throw new RangeError(`weight of ${p.name} must be a finite number ≥ 0, got ${p.weight}`);
    }
  }
  const total = parts.reduce((s, p) => s + p.weight, 0);
  if (total <= 0) throw new RangeError('composite weights must not all be 0');
  const components = parts.map((p) => ({
    name: p.name,
    roundedScore: p.result.roundedScore,
    weight: snapScore(p.weight / total),
  }));
  const raw = parts.reduce((s, p) => s + p.result.roundedScore * (p.weight / total), 0);
  return scoreResult(raw, { type: 'composite', components });
}
