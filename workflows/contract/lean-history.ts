// The lean history (docs/performance.md, "History events per path"): contracts started after this
// patch save history events — the escrow lock, the last settle and the panel's seats as local
// activities (one marker event instead of three events plus a workflow task, activities.ts), one
// timer per deadline rather than one per wait, and one search-attribute upsert per workflow task. Decided once, at the start, and kept on the contract:
// a later patched() call could answer differently once a replayed workflow reaches live execution.
// The leaner history (a second patch, asked first so a new contract records one marker, not two)
// adds: the draw secret and the durable record as local activities, without the draw secret's marker.
// A versioned history (the input's historyVersion, set by the API for every new contract) asks no
// patch at all — a patch marker and the SDK's TemporalChangeVersion upsert are 2 events — and locks
// the holds of messages that cannot race as local activities (activity-proxies.ts).
import { patched } from '@temporalio/workflow';
import type { ContractInput } from '../definitions';
import { PATCHES, type PatchId } from './patches';

export interface Lean {
  readonly lean: boolean;
  /** Implies `lean`. */
  readonly leaner: boolean;
  /** Implies `leaner`: started with historyVersion, decided from the input (no marker). */
  readonly versioned: boolean;
  /** Implies `versioned`: history version 2, bounded messages answer the view (receipt.ts). */
  readonly answersViews: boolean;
}

/** The first history version decided from the input, and the one whose answers carry the view. */
const VERSIONED = 1;
const ANSWERS_VIEWS = 2;

/**
 * Called once, before the workflow's first command. The input is in the history's first event, so a
 * replay decides as the run did; an input without historyVersion asks patched() exactly as before.
 */
export function startsLean(input: Pick<ContractInput, 'historyVersion'>): Lean {
  const version = input.historyVersion;
  if (version !== undefined && version >= VERSIONED)
    return { lean: true, leaner: true, versioned: true, answersViews: version >= ANSWERS_VIEWS };
  const unversioned = { versioned: false, answersViews: false };
  if (patched(PATCHES.leanerHistory)) return { lean: true, leaner: true, ...unversioned };
  return { lean: patched(PATCHES.leanHistory), leaner: false, ...unversioned };
}

/**
 * An earlier patch's answer: a lean history started after every earlier patch existed, so it skips
 * their markers (each costs a marker and a search-attribute upsert); older histories ask as they did.
 */
export function patchedBefore(c: Lean, patchId: PatchId): boolean {
  return c.lean || patched(patchId);
}
