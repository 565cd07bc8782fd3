// The automatic verifier (docs/protocol.md §10) on the time-skipping server: a machine-checkable criterion's
// evidence is scored on delivery into the party view and the log; it informs and never decides, so
// the Client's approval still settles in full, with the exact balances of every party.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsQuery } from '../../workflows/definitions';
import { AUTO_VERIFIER_AGENT_ID } from '../../workflows/rules/events';
import { scoreCheck } from '../../workflows/rules/scoring/score-check';
import { dailyMoltbookCheck, dailyMoltbookEvidence } from '../scoring/fixtures';
import { useWorkflowSuite } from './harness';
import { CLIENT, FUNDS, OTHER, PRICE, SHA_A, WORKER, WORKER_FUNDS } from '../support/fixtures';
import { PATHS } from './scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

describe('automatic verifier (time-skipping server, real ledger on SQLite)', () => {
  test('evidence scored met on delivery; the approval pays the whole escrow', () =>
    withHarness(async (h) => {
      const run = await PATHS['settled-approved-auto-verified'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');

      const view = await h.view(run.handle);
      const deliveredAt = view.delivery?.deliveredAt;
      assert.ok(deliveredAt !== undefined);
      const auto = view.autoVerification;
      assert.ok(auto !== null);
      // The daily-posts worked example: 6 of 7 counted, every interval on time, one post too short.
      const [result] = auto.results;
      assert.equal(result?.score.toFixed(3), '89.667');
      assert.equal(result.breakdown.type === 'consistency' && result.breakdown.actionsCounted, 6);
      assert.deepEqual(auto, {
        agentId: AUTO_VERIFIER_AGENT_ID,
        target: SHA_A,
        evaluatedAt: deliveredAt,
        verdict: 'pass',
        results: [
          {
            ...scoreCheck(dailyMoltbookCheck, dailyMoltbookEvidence, Date.parse(deliveredAt)),
            criterionIndex: 1,
            key: 'c2',
            checkType: 'consistency',
            roundedScore: 90,
            verdict: 'met',
          },
        ],
      });
      assert.deepEqual(view.criteriaMet, ['met', 'met']);
      assert.equal(view.payment, PRICE.toString());

      const verified = (await run.handle.query(eventsQuery)).filter((e) => e.type === 'agent.verified');
      assert.deepEqual(
        verified.map((e) => [e.agentId, e.role, e.target, e.verdict, e.criteria]),
        [
          [AUTO_VERIFIER_AGENT_ID, 'auto-verifier', SHA_A, 'pass', ['c2']],
          [CLIENT, 'client', SHA_A, 'pass', ['c1', 'c2']],
        ],
      );

      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE),
        [WORKER]: b(WORKER_FUNDS + PRICE),
        [OTHER]: b(WORKER_FUNDS),
        treasury: b(0n),
      });
      await h.assertNothingPending(run.contractId);
    }));
});
