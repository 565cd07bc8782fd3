// The contract's draw secret (rules/draw): fetched from an activity at creation, its commitment
// published in contract.created, revealed only in contract.panel-drawn. It lives in the workflow's
// memory and its (codec-sealed) history; no query, view or event carries it before the draw.
import { local } from './activity-proxies';

/** A new contract's secret. */
export function newDrawSecret(): Promise<string> {
  return local.draws.newDrawSecret().then((r) => r.secret);
}
