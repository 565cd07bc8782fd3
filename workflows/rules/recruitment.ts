// Waiting for a full panel. A panel is seated only in full; while the registry cannot seat one the
// contract waits and draws again on a backoff (first after a minute, doubling, at most an hour
// apart: about 80 tries over a 72-hour window, a few hundred history events), and once the
// recruitment window is over the operator decides as trusted arbiter. A missing panel never
// resolves a criterion by itself.
import type { ProtocolParams } from './params';
import type { Verdict } from './verdicts';

export const FIRST_RETRY_MS = 60_000;
export const MAX_RETRY_MS = 3_600_000;

export interface Recruitment {
  /** When the contract started waiting for this panel. */
  since: number;
  /** Draws tried since then. */
  attempts: number;
  /** When the draw is tried again; the end of the window once it is reached. */
  retryAt: number;
  /** The window is over: the operator decides as trusted arbiter. */
  arbiter: boolean;
}

export function recruitmentEnd(since: number, params: Pick<ProtocolParams, 'baRecruitmentWindow'>): number {
  return since + params.baRecruitmentWindow;
}

/**
 * The wait after a draw that could not seat a full panel (`previous` null for the first). The window
 * runs from `askedAt` — the dispute, the standard delivery or the appeal — when it is known.
 */
export function afterUnseatedDraw(
  previous: Recruitment | null,
  now: number,
  params: Pick<ProtocolParams, 'baRecruitmentWindow'>,
  askedAt: number | null = null,
): Recruitment {
  const since = previous?.since ?? askedAt ?? now;
  const attempts = (previous?.attempts ?? 0) + 1;
  const delay = Math.min(FIRST_RETRY_MS * 2 ** Math.min(attempts - 1, 30), MAX_RETRY_MS);
  const end = recruitmentEnd(since, params);
  return { since, attempts, retryAt: Math.min(now + delay, end), arbiter: now >= end };
}

/**
 * After a void round (silence decides nothing): a new panel is drawn at once, within the window that
 * runs from `askedAt` (the dispute, the standard delivery, the appeal); past it, the arbiter decides.
 */
export function afterVoidRound(
  askedAt: number,
  now: number,
  params: Pick<ProtocolParams, 'baRecruitmentWindow'>,
): Recruitment {
  const end = recruitmentEnd(askedAt, params);
  return { since: askedAt, attempts: 0, retryAt: Math.min(now, end), arbiter: now >= end };
}

/** A trusted arbiter's verdicts: one `met` or `not met` per criterion (it decides; it is never unclear). */
export function arbiterVerdictsProblem(verdicts: unknown, criteriaCount: number): string | null {
  if (!Array.isArray(verdicts) || verdicts.length !== criteriaCount) {
    return `must hold one verdict per criterion (${criteriaCount})`;
  }
  const bad = verdicts.findIndex((v) => v !== 'met' && v !== 'not met');
  return bad === -1 ? null : `verdicts[${bad}] must be "met" or "not met"`;
}

export type ArbiterVerdict = Extract<Verdict, 'met' | 'not met'>;
