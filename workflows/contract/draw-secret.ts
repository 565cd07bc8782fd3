// The contract's draw secret (rules/draw): fetched from an activity at creation, its commitment
// published in contract.created, revealed only in contract.panel-drawn. It lives in the workflow's
// memory and its (codec-sealed) history; no query, view or event carries it before the draw.
import { patched } from '@temporalio/workflow';
import { draws } from './activity-proxies';
import type { Lean } from './lean-history';
import { PATCHES } from './patches';

/** A new contract's secret (null for histories from before secrets). */
export function newDrawSecret(c: Lean): Promise<string | null> {
  if (!c.leaner && !patched(PATCHES.drawSecret)) return Promise.resolve(null);
  return draws(c)
    .newDrawSecret()
    .then((r) => r.secret);
}
