// Change requests (docs/protocol.md §7 "Request changes"): how many a Client may make, what a request
// names, and how it moves the deadlines. Pure.
import type { ProtocolParams } from './params';

/** The longest note a Client may send with a change request (characters). */
export const MAX_REVISION_NOTE_LENGTH = 4000;

export interface RevisionDeadlines {
  delivery: number;
  review: number;
  /** How far both deadlines moved (ms, never negative). */
  shift: number;
}

/**
 * The deadlines after a change request at `now`: the delivery deadline becomes
 * max(current, now + revisionWindow), so the Worker gets at least the window; the review deadline moves
 * by exactly as much, so the Client keeps the review time after the delivery deadline that the terms
 * gave it. A request made while the delivery deadline is still far off moves neither.
 */
export function deadlinesAfterRevision(
  current: { delivery: number; review: number },
  now: number,
  params: Pick<ProtocolParams, 'revisionWindow'>,
): RevisionDeadlines {
  const delivery = Math.max(current.delivery, now + params.revisionWindow);
  const shift = delivery - current.delivery;
  return { delivery, review: current.review + shift, shift };
}

/** Null while the Client may still ask for changes; why not once it has made `maxRevisions` of them. */
export function revisionsExhausted(
  made: number,
  params: Pick<ProtocolParams, 'maxRevisions'>,
): { code: 'revisions_exhausted'; message: string } | null {
  return made < params.maxRevisions
    ? null
    : {
        code: 'revisions_exhausted',
        message: `the Client has made its ${params.maxRevisions} change request(s): approve or dispute`,
      };
}

/**
 * The criteria a change request names: 1 to `criteriaCount` distinct indices below it, sorted. A
 * message naming the problem when they are not.
 */
export function revisionCriteria(
  value: unknown,
  criteriaCount: number,
): { ok: true; criteria: number[] } | { ok: false; message: string } {
  if (!Array.isArray(value) || value.length === 0) {
    return { ok: false, message: 'criteria must be a non-empty array of criterion indices' };
  }
  const bad = value.findIndex(
    (i) => !(Number.isInteger(i) && (i as number) >= 0 && (i as number) < criteriaCount),
  );
  if (bad !== -1) return { ok: false, message: `criteria[${bad}] must be an index below ${criteriaCount}` };
  const unique = [...new Set(value as number[])];
  if (unique.length !== value.length) return { ok: false, message: 'criteria must not repeat an index' };
  return { ok: true, criteria: unique.sort((a, b) => a - b) };
}

/** The note's problem, or null (absent, or a string of at most MAX_REVISION_NOTE_LENGTH characters). */
export function revisionNoteProblem(note: unknown): string | null {
  if (note === undefined) return null;
  return typeof note === 'string' && note.length <= MAX_REVISION_NOTE_LENGTH
    ? null
    : `note must be a string of at most ${MAX_REVISION_NOTE_LENGTH} characters`;
}
