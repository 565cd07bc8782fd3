// The Temporal budget's arithmetic (docs/security.md "Temporal budget"): what every non-party together
// can write stays below the point where Temporal suggests continuing as new, and leaves the parties
// Updates of their own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUDGET, EVENTS_PER_QUOTE, nonPartyEventBound, TEMPORAL_LIMITS } from '../../workflows/rules/budget';

/** A generous bound on what the parties and a 3-member panel write after the match (docs/security.md). */
const PARTIES_AFTER_MATCH = 200;

test('non-parties cannot bring a run near the history limits', () => {
  assert.equal(nonPartyEventBound(), 5_140);
  assert.ok(nonPartyEventBound() + PARTIES_AFTER_MATCH < TEMPORAL_LIMITS.historyEventsWarn);
  assert.ok(BUDGET.quotesPerContract * EVENTS_PER_QUOTE <= BUDGET.nonPartyHistoryEvents);
});

test('non-parties leave Updates to the parties, below the continue-as-new suggestion', () => {
  const suggested = TEMPORAL_LIMITS.updatesPerRun * 0.9;
  assert.ok(BUDGET.nonPartyUpdates + TEMPORAL_LIMITS.updatesInFlight + PARTIES_AFTER_MATCH < suggested);
  assert.ok(BUDGET.quotesPerBidder <= BUDGET.quotesPerContract);
});
