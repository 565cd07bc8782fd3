// The pure change-request rules (docs/protocol.md §7 "Request changes"): the deadline arithmetic, the
// bound, what a request names; and the Worker's next action once the delivery is sent back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  deadlinesAfterRevision,
  revisionCriteria,
  revisionNoteProblem,
  revisionsExhausted,
} from '../../workflows/rules/revisions';
import { nextAction } from '../../workflows/rules/next-action';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { CLIENT, HOUR, WORKER } from '../support/fixtures';

const WINDOW = DEFAULT_PARAMS.revisionWindow;

describe('change requests', () => {
  test('near the delivery deadline: the Worker gets the whole window, the review moves as far', () => {
    const current = { delivery: 10 * HOUR, review: 12 * HOUR };
    assert.deepEqual(deadlinesAfterRevision(current, 9 * HOUR, DEFAULT_PARAMS), {
      delivery: 9 * HOUR + WINDOW,
      review: 12 * HOUR + (9 * HOUR + WINDOW - 10 * HOUR),
      shift: 9 * HOUR + WINDOW - 10 * HOUR,
    });
  });

  test('a delivery deadline further off than the window moves nothing', () => {
    const current = { delivery: 100 * HOUR, review: 101 * HOUR };
    assert.deepEqual(deadlinesAfterRevision(current, HOUR, DEFAULT_PARAMS), { ...current, shift: 0 });
  });

  test('property: delivery ≥ now + window and ≥ before; review − delivery unchanged; never earlier', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 1e9 }),
        fc.integer({ min: 1, max: 1e9 }),
        (now, ahead, gap, window) => {
          const current = { delivery: now + ahead - 1, review: now + ahead - 1 + gap };
          const moved = deadlinesAfterRevision(current, now, { revisionWindow: window });
          assert.ok(moved.delivery >= now + window && moved.delivery >= current.delivery);
          assert.equal(moved.review - moved.delivery, gap);
          assert.equal(moved.shift, moved.delivery - current.delivery);
        },
      ),
    );
  });

  test('at most maxRevisions, then revisions_exhausted', () => {
    assert.equal(revisionsExhausted(0, DEFAULT_PARAMS), null);
    assert.equal(revisionsExhausted(1, DEFAULT_PARAMS), null);
    assert.equal(revisionsExhausted(2, DEFAULT_PARAMS)?.code, 'revisions_exhausted');
    assert.equal(revisionsExhausted(0, { maxRevisions: 0 })?.code, 'revisions_exhausted');
  });

  test('the criteria: 1 or more distinct indices below the count, sorted', () => {
    assert.deepEqual(revisionCriteria([2, 0], 3), { ok: true, criteria: [0, 2] });
    for (const bad of [[], [3], [-1], [0.5], [1, 1], 'c1', null]) {
      assert.equal(revisionCriteria(bad, 3).ok, false, JSON.stringify(bad));
    }
  });

  test('the note: optional, a string of at most 4000 characters', () => {
    assert.equal(revisionNoteProblem(undefined), null);
    assert.equal(revisionNoteProblem('x'.repeat(4000)), null);
    assert.match(revisionNoteProblem('x'.repeat(4001))!, /4000/);
    assert.match(revisionNoteProblem(42)!, /string/);
  });

  test('sent back (matched again): the Worker’s next action is to deliver by the moved deadline', () => {
    const delivery = new Date(60 * HOUR).toISOString();
    const view = {
      status: 'matched' as const,
      awardMethod: 'direct' as const,
      verificationMode: 'privacy-preserving' as const,
      client: CLIENT,
      worker: WORKER,
      backupAgents: [],
      deadlines: {
        match: new Date(HOUR).toISOString(),
        withdrawal: new Date(2 * HOUR).toISOString(),
        delivery,
        review: new Date(61 * HOUR).toISOString(),
      },
      voting: null,
    };
    const input = { view, events: [], ballotsCast: [], now: 10 * HOUR };
    assert.deepEqual(nextAction({ ...input, agent: WORKER }), { action: 'deliver', deadline: delivery });
    assert.equal(nextAction({ ...input, agent: CLIENT }), null);
  });
});
