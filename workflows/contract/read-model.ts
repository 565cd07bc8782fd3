// The contract's read model (docs/records.md, docs/workflow.md "Read model"): what every HTTP read of
// the contract answers, written by the workflow as each transition happens, never read back from it.
// `writeReadModel` is called where a change becomes visible: before an Update answers or a Signal's
// handler ends (messages.ts), and before the main loop waits (lifecycle.ts), so a timer's change is
// written too; the terminal write is the durable record (contract.ts). A call that finds the state as
// last written writes nothing. Each write is one local activity carrying a version computed here and the
// events the store may lack; the store keeps only a higher version (compare-and-set), so a view never
// goes back. A retried task's writes carry higher versions than the failed task's (the workflow's clock
// moved on), so a write the history never kept is overwritten by the one it keeps.
import { setHandler } from '@temporalio/workflow';
import type { VotesResult } from '../definitions';
import { rewriteReadModelSignal } from '../operator-messages';
import { local } from './activity-proxies';
import type { Contract } from './state';
import { contractView } from './view';

/** Versions per millisecond of workflow time: a retried task (a later clock) outranks every write of the failed one. */
const PER_MS = 1024;

/** The votes query's and the read model's answer: sealed while a drawn panel votes; no rows without a panel. */
export function votesResult(c: Contract): VotesResult {
  const { rows, current, due } = c.panel;
  if (rows !== null) return { sealed: false, rows: [...rows] };
  // No panel was ever seated (none due, or the trusted arbiter decided): there is nothing to seal.
  return current === null && (!due || c.decision !== null || c.terminal)
    ? { sealed: false, rows: [] }
    : { sealed: true };
}

/** Writes the contract's read model if its state changed since the last write (nothing before its escrow is held). */
export async function writeReadModel(c: Contract): Promise<void> {
  const w = c.readModel;
  while (c.created) {
    const view = contractView(c);
    const votes = votesResult(c);
    // Who has voted matters only while the panel votes; a closed contract keeps none.
    const ballotsCast = c.terminal ? [] : c.panel.ballots.map((b) => b.voter);
    const key = JSON.stringify([view, votes, ballotsCast, c.events.length, c.events.at(-1)]);
    if (key === w.key) return;
    w.key = key;
    w.version = Math.max(w.version + 1, Date.now() * PER_MS);
    const version = w.version;
    // From the last count the store confirmed: a write in flight may not land, a failed step may have
    // taken events back (needs-operator.ts restore).
    const from = Math.min(w.confirmed.events, c.events.length);
    const result = await local.records.writeContract({
      contractId: c.contractId,
      version,
      view,
      votes,
      ballotsCast,
      from,
      events: c.events.slice(from),
    });
    if (result.outcome === 'written' && version > w.confirmed.version) {
      w.confirmed = { version, events: result.storedEvents };
    }
    if (result.outcome !== 'gap') return;
    // The store lacks events before `from` (a lost read model): write again from what it holds.
    w.confirmed = { version, events: result.storedEvents };
    w.key = '';
  }
}

/**
 * The operator's rebuild of a lost read model (scripts/rebuild-read-model.ts): the next write carries the
 * whole state and log again, whatever the store answered before.
 */
export function registerReadModelRebuild(c: Contract): void {
  setHandler(rewriteReadModelSignal, async () => {
    const w = c.readModel;
    w.key = '';
    w.confirmed = { version: w.confirmed.version, events: 0 };
    await writeReadModel(c);
  });
}
