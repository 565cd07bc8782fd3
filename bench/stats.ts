// What every benchmark prints beside its figures: the load average, and the summaries of its samples.
// No other imports, so any benchmark (or a child process of one) can load it cheaply.
import { loadavg } from 'node:os';

/** The 1-, 5- and 15-minute load averages, as `uptime` prints them. */
export function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The middle sample (the upper one of an even count). */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

/** The sample at fraction `p` (0–1) of the sorted samples. */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
