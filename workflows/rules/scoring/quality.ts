// The scoring reference: "Verification Type 2: Quality": scoreQuality and getMetricWeights, with docs/protocol.md §10's
// decisions: weights normalized to sum to 1, satisfaction averaged over the rated samples only.
import type { QualityCheck } from '../machine-checks';
import { screenRecords, type CountedRecord, type EvidenceRecord } from './evidence';
import { percent, scoreResult, type RecordAccounting, type ScoreResult } from './result';
import { snapScore } from './verdict';

export const QUALITY_METRICS = [
  'responseTime',
  'completeness',
  'format',
  'satisfaction',
  'accuracy',
] as const;
export type QualityMetric = (typeof QUALITY_METRICS)[number];

/** Relative weights of getMetricWeights: satisfaction and accuracy count 1.5 times the others. */
export const RELATIVE_METRIC_WEIGHTS: Readonly<Record<QualityMetric, number>> = {
  responseTime: 1,
  completeness: 1,
  format: 1,
  satisfaction: 1.5,
  accuracy: 1.5,
};

export interface MetricScore {
  /** 0–100. */
  score: number;
  /** Normalized: the weights of the scored metrics sum to 1. */
  weight: number;
  /** Samples that passed the metric (for satisfaction: the samples that carry a rating). */
  passing: number;
  /** Samples the metric was taken over. */
  of: number;
}

export interface QualityBreakdown extends RecordAccounting {
  type: 'quality';
  samples: number;
  minimumSamples: number;
  /** True when fewer samples than minimumSamples counted: the score is 0 (seed). */
  insufficientSamples: boolean;
  metrics: Partial<Record<QualityMetric, MetricScore>>;
  /** Satisfaction is enabled but no sample is rated, so it is not scored (seed: "if available"). */
  satisfactionUnrated: boolean;
  /** Mean rating over the rated samples, out of 5. */
  averageSatisfaction?: number;
}

type RawMetric = Omit<MetricScore, 'weight'>;

function share(samples: readonly CountedRecord[], passes: (r: EvidenceRecord) => boolean): RawMetric {
  const passing = samples.filter((s) => passes(s.record)).length;
  return { score: percent(passing, samples.length), passing, of: samples.length };
}

function rawMetrics(check: QualityCheck, samples: readonly CountedRecord[]) {
  const m = check.qualityMetrics;
  const raw: Partial<Record<QualityMetric, RawMetric>> = {};
  if (m.responseTimeMinutes !== undefined) {
    const limit = m.responseTimeMinutes;
    raw.responseTime = share(
      samples,
      (r) => r.responseTimeMinutes !== undefined && r.responseTimeMinutes <= limit,
    );
  }
  if (m.minimumLength !== undefined) {
    const min = m.minimumLength;
    raw.completeness = share(samples, (r) => r.contentLength !== undefined && r.contentLength >= min);
  }
  if (m.requiredFormat !== undefined) {
    raw.format = share(samples, (r) => r.format === m.requiredFormat);
  }
  let averageSatisfaction: number | undefined;
  const ratings = samples.flatMap((s) =>
    s.record.satisfactionRating === undefined ? [] : [s.record.satisfactionRating],
  );
  if (m.satisfactionThreshold !== undefined && ratings.length > 0) {
    averageSatisfaction = snapScore(ratings.reduce((a, b) => a + b, 0) / ratings.length);
    raw.satisfaction = {
      score: snapScore((averageSatisfaction / 5) * 100),
      passing: ratings.length,
      of: ratings.length,
    };
  }
  if (m.technicalAccuracy === true) {
    raw.accuracy = share(samples, (r) => r.accuracyVerified === true);
  }
  return {
    raw,
    averageSatisfaction,
    satisfactionUnrated: m.satisfactionThreshold !== undefined && ratings.length === 0,
  };
}

/** Weighs the scored metrics by RELATIVE_METRIC_WEIGHTS, normalized to sum to 1. */
function weigh(raw: Partial<Record<QualityMetric, RawMetric>>) {
  const scored = QUALITY_METRICS.filter((k) => raw[k] !== undefined);
  const total = scored.reduce((s, k) => s + RELATIVE_METRIC_WEIGHTS[k], 0);
  const metrics: Partial<Record<QualityMetric, MetricScore>> = {};
  let overall = 0;
  for (const k of scored) {
    const weight = RELATIVE_METRIC_WEIGHTS[k] / total;
    metrics[k] = { ...raw[k]!, weight: snapScore(weight) };
    overall += raw[k]!.score * weight;
  }
  return { metrics, overall };
}

export function scoreQuality(
  check: QualityCheck,
  records: readonly EvidenceRecord[],
  evaluatedAt: number,
): ScoreResult<QualityBreakdown> {
  const { counted, rejected } = screenRecords(check, records, evaluatedAt);
  const base = {
    type: 'quality' as const,
    samples: counted.length,
    minimumSamples: check.minimumSamples,
    recordsCounted: counted.length,
    recordsRejected: rejected,
  };
  if (counted.length < check.minimumSamples) {
    return scoreResult(0, { ...base, insufficientSamples: true, metrics: {}, satisfactionUnrated: false });
  }
  const { raw, averageSatisfaction, satisfactionUnrated } = rawMetrics(check, counted);
  const { metrics, overall } = weigh(raw);
  return scoreResult(overall, {
    ...base,
    insufficientSamples: false,
    metrics,
    satisfactionUnrated,
    ...(averageSatisfaction === undefined ? {} : { averageSatisfaction }),
  });
}
