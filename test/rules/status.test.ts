import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONTRACT_STATUSES,
  assertTransition,
  canTransition,
  cancelledStatus,
  isTerminal,
  settledStatus,
  type ContractStatus,
} from '../../workflows/rules/status';

const ALLOWED: [ContractStatus, ContractStatus][] = [
  ['created', 'matched'],
  ['created', 'cancelled-by-client'],
  ['created', 'cancelled-unmatched'],
  ['matched', 'under-review'],
  ['matched', 'cancelled-withdrawn'],
  ['matched', 'cancelled-absent'],
  ['matched', 'settled-partially-met'], // absent on a later milestone, earlier ones settled
  ['matched', 'settled-none-met'],
  ['under-review', 'matched'], // a change request (privacy-preserving)
  ['under-review', 'disputed'],
  ['under-review', 'resolved'],
  ['disputed', 'resolved'],
  ['resolved', 'disputed'],
  ['resolved', 'matched'], // the next milestone
  ['resolved', 'settled-fully-met'],
  ['resolved', 'settled-partially-met'],
  ['resolved', 'settled-none-met'],
  // The operator's release of a contract whose money step the ledger refused (docs/operations.md).
  ...(['created', 'matched', 'under-review', 'disputed', 'resolved'] as const).map(
    (from): [ContractStatus, ContractStatus] => [from, 'cancelled-by-operator'],
  ),
];

describe('statuses', () => {
  test('the twelve statuses of docs/protocol.md §4, and the operator release', () => {
    assert.equal(CONTRACT_STATUSES.length, 13);
  });

  test('exactly the settled-* and cancelled-* statuses are terminal', () => {
    for (const status of CONTRACT_STATUSES) {
      assert.equal(isTerminal(status), /^(settled|cancelled)-/.test(status), status);
    }
  });

  test('exactly the listed transitions are allowed', () => {
    for (const from of CONTRACT_STATUSES) {
      for (const to of CONTRACT_STATUSES) {
        const allowed = ALLOWED.some(([f, t]) => f === from && t === to);
        assert.equal(canTransition(from, to), allowed, `${from} → ${to}`);
      }
    }
  });

  test('assertTransition throws naming both statuses', () => {
    assert.throws(() => assertTransition('created', 'under-review'), /created → under-review/);
    assert.throws(() => assertTransition('settled-none-met', 'resolved'));
    assert.doesNotThrow(() => assertTransition('disputed', 'resolved'));
  });

  test('every status but the terminal ones reaches a terminal status', () => {
    // An appeal goes back from resolved to disputed: a cycle, so each path visits a status once.
    const reachesTerminal = (s: ContractStatus, seen: ReadonlySet<ContractStatus> = new Set()): boolean =>
      isTerminal(s) ||
      ALLOWED.filter(([f, t]) => f === s && !seen.has(t)).some(([, t]) =>
        reachesTerminal(t, new Set([...seen, s])),
      );
    for (const status of CONTRACT_STATUSES) assert.ok(reachesTerminal(status), status);
  });

  test('cancellation reasons and tiers name their statuses', () => {
    assert.equal(cancelledStatus('by-client'), 'cancelled-by-client');
    assert.equal(cancelledStatus('unmatched'), 'cancelled-unmatched');
    assert.equal(cancelledStatus('withdrawn'), 'cancelled-withdrawn');
    assert.equal(cancelledStatus('absent'), 'cancelled-absent');
    assert.equal(settledStatus('fully-met'), 'settled-fully-met');
    assert.equal(settledStatus('partially-met'), 'settled-partially-met');
    assert.equal(settledStatus('none-met'), 'settled-none-met');
  });
});
