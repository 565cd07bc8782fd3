// The lean history (docs/performance.md, "History events per path"): contracts started after this
// patch save history events — the escrow lock, the last settle and the panel's seats as local
// activities (one marker event instead of three events plus a workflow task, activities.ts), one
// timer per deadline rather than one per wait, and one search-attribute upsert per workflow task. Decided once, at the start, and kept on the contract:
// a later patched() call could answer differently once a replayed workflow reaches live execution.
import { patched } from '@temporalio/workflow';
import { PATCHES, type PatchId } from './patches';

export interface Lean {
  readonly lean: boolean;
}

/** Called once, before the workflow's first command. */
export function startsLean(): boolean {
  return patched(PATCHES.leanHistory);
}

/**
 * An earlier patch's answer: a lean history started after every earlier patch existed, so it skips
 * their markers (each costs a marker and a search-attribute upsert); older histories ask as they did.
 */
export function patchedBefore(c: Lean, patchId: PatchId): boolean {
  return c.lean || patched(patchId);
}
