// The content-free event log (docs/scoring.md §6): shapes validated against the JSON Schema with ajv, the
// verdict mapping, the criterion keys, and the rule that a binding fail is never paid in full.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import { drawFromCandidates } from '../../workflows/rules/draw';
import { agentVerdictFor, clientReviewVerdicts } from '../../workflows/rules/agent-verdicts';
import {
  agentVerifiedEvent,
  changeRequestedEvent,
  contractResolvedEvent,
  contractSettledEvent,
  messageRejectedEvent,
} from '../../workflows/rules/event-constructors';
import {
  assertNoFullPaymentAfterBindingFail,
  findFullPaymentAfterBindingFail,
} from '../../workflows/rules/event-invariants';
import { criterionIndexOfKey, criterionKey, criterionKeys } from '../../workflows/rules/criterion-keys';
import { type ContractEvent, type PanelDrawnEvent } from '../../workflows/rules/events';
import { contractEventJsonSchema } from '../../workflows/rules/events-schema';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { settlementFor } from '../../workflows/rules/settlement';
import type { Verdict } from '../../workflows/rules/verdicts';
import { CONTRACT_ID, DELIVERY_HASH, SECRETS, auctionLifecycle, otherEvents } from './sample-events';
import { CLIENT } from '../support/fixtures';

const validate = new Ajv2020({ strict: true, allErrors: true }).compile(contractEventJsonSchema);

function assertValid(event: unknown) {
  assert.equal(validate(event), true, `${JSON.stringify(event)}\n${JSON.stringify(validate.errors)}`);
}

describe('event shapes against the JSON Schema', () => {
  const events = [...auctionLifecycle(['met', 'not met', 'unclear']), ...otherEvents()];

  test('every constructed event validates', () => {
    const types = new Set(events.map((e) => e.type));
    assert.equal(types.size, 12, `all twelve event types are exercised: ${[...types].join(', ')}`);
    for (const e of events) assertValid(e);
  });

  test('every event carries type, contractId, an ISO UTC time and an actor', () => {
    for (const e of events) {
      assert.match(e.at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.ok(e.actor === 'system' || e.actor === 'auto-verifier' || /^0x[0-9a-f]{40}$/.test(e.actor));
    }
    assert.equal(otherEvents()[0]!.at, '2025-02-01T22:00:00.000Z');
  });

  test('an extra field (content, a key, a quote price) fails validation', () => {
    const [created, quote] = events;
    assert.equal(validate({ ...created, taskDescription: SECRETS.task }), false);
    assert.equal(validate({ ...quote, price: '100' }), false);
    const verified = events.find((e) => e.type === 'agent.verified')!;
    assert.equal(validate({ ...verified, result: SECRETS.content }), false);
    assert.equal(validate({ ...verified, verdict: 'ok' }), false);
    assert.equal(validate({ ...verified, criteria: ['Each tip cites a source'] }), false);
    const rejected = events.find((e) => e.type === 'contract.message-rejected')!;
    assert.equal(validate({ ...rejected, code: 'Bad Input: the text was...' }), false);
  });

  test('no event carries the task, the criteria, the content or the keys', () => {
    const log = JSON.stringify(auctionLifecycle(['met', 'met', 'met']));
    for (const secret of [
      SECRETS.task,
      ...SECRETS.criteria,
      SECRETS.deliveryKey,
      SECRETS.materialsKey,
      SECRETS.content,
    ]) {
      assert.equal(log.includes(secret), false, `found ${secret}`);
    }
    assert.equal(log.includes('health'), false, 'check parameters (required tags) are content too');
  });

  test('quotes carry no price; the matched event carries the winning one (the contract price)', () => {
    for (const e of auctionLifecycle(['met', 'met', 'met']).filter(
      (x) => x.type === 'contract.quote-received',
    )) {
      assert.equal(JSON.stringify(e).includes(SECRETS.price), false);
    }
    const matched = auctionLifecycle(['met', 'met', 'met']).find((e) => e.type === 'contract.matched');
    assert.equal(matched?.type === 'contract.matched' && matched.price, SECRETS.price);
  });

  test('created: criteria keys and the keys of checked criteria', () => {
    const created = auctionLifecycle(['met', 'met', 'met'])[0]!;
    assert.equal(created.type, 'contract.created');
    if (created.type !== 'contract.created') return;
    assert.deepEqual(created.criteria, ['c1', 'c2', 'c3']);
    assert.deepEqual(created.checkedCriteria, ['c2']);
    assert.equal(created.materialsSha256, 'f'.repeat(64));
    assert.equal(created.deadlines.review, undefined);
  });

  test('panel-drawn records enough to recompute the panel', () => {
    const drawn = auctionLifecycle(['met', 'met', 'met']).find(
      (e): e is PanelDrawnEvent => e.type === 'contract.panel-drawn',
    )!;
    const recomputed = drawFromCandidates({
      contractId: drawn.contractId,
      deliveryHash: drawn.deliverySha256,
      panelSize: drawn.panelSize,
      round: drawn.round,
      secret: drawn.secret ?? null,
      candidates: drawn.candidates,
    });
    assert.deepEqual(recomputed.panel, drawn.panel);
    assert.equal(recomputed.seed, drawn.seed);
    assert.equal(drawn.panel.length, 3);
    assert.equal(drawn.panel.includes(CLIENT), false);
  });

  test('resolved: a terminate decision with one { key, met } per criterion', () => {
    const resolved = contractResolvedEvent(
      { contractId: CONTRACT_ID, at: 0, actor: 'system' },
      { source: 'panel-tally', criteriaMet: ['met', 'not met', 'unclear'] },
    );
    assert.deepEqual(resolved.successCriteria, [
      { key: 'c1', met: true },
      { key: 'c2', met: false },
      { key: 'c3', met: false },
    ]);
    assert.deepEqual(resolved.unclear, ['c3']);
    assert.equal(resolved.decision, 'terminate');
    assert.equal(resolved.verdict, 'fail');
    assertValid(resolved);
  });
});

describe('verdict mapping and keys', () => {
  const cases: [Verdict[], string][] = [
    [['met'], 'pass'],
    [['met', 'met', 'met'], 'pass'],
    [['met', 'not met'], 'fail'],
    [['unclear', 'not met'], 'fail'],
    [['met', 'unclear'], 'revise'],
    [['unclear'], 'revise'],
  ];
  for (const [verdicts, expected] of cases) {
    test(`${verdicts.join(', ')} → ${expected}`, () => assert.equal(agentVerdictFor(verdicts), expected));
  }

  test('the Client’s review: approval → pass; a dispute → its claims, or fail without claims', () => {
    assert.equal(agentVerdictFor(clientReviewVerdicts(3, { approved: true })), 'pass');
    assert.deepEqual(clientReviewVerdicts(2, { approved: false }), ['not met', 'not met']);
    assert.equal(agentVerdictFor(clientReviewVerdicts(2, { approved: false })), 'fail');
    assert.equal(
      agentVerdictFor(clientReviewVerdicts(2, { approved: false, claims: ['met', 'unclear'] })),
      'revise',
    );
    assert.throws(() => clientReviewVerdicts(2, { approved: false, claims: ['met'] }), RangeError);
  });

  test('no verdict at all is refused', () => {
    assert.throws(() => agentVerdictFor([]), RangeError);
  });

  test('a change request is the Client’s agent.verified `revise` naming the unmet criteria, no note', () => {
    const e = changeRequestedEvent(
      { contractId: CONTRACT_ID, at: 0, actor: CLIENT },
      { client: CLIENT, deliverySha256: DELIVERY_HASH, criteria: [3, 1, 3] },
    );
    assert.deepEqual(
      [e.type, e.agentId, e.role, e.verdict, e.criteria, e.target],
      ['agent.verified', CLIENT, 'client', 'revise', ['c2', 'c4'], DELIVERY_HASH],
    );
    assert.equal(validate({ ...e, note: 'redo it' }), false);
    assert.throws(() =>
      changeRequestedEvent(
        { contractId: CONTRACT_ID, at: 0, actor: CLIENT },
        { client: CLIENT, deliverySha256: DELIVERY_HASH, criteria: [] },
      ),
    );
  });

  test('agent.verified names only the evaluated criteria', () => {
    const e = agentVerifiedEvent(
      { contractId: 'x', at: 0, actor: 'auto-verifier' },
      {
        agentId: 'opencontract:auto-verifier',
        role: 'auto-verifier',
        deliverySha256: DELIVERY_HASH,
        verdicts: [undefined, 'unclear', 'met'],
      },
    );
    assert.deepEqual([e.criteria, e.verdict, e.target], [['c2', 'c3'], 'revise', DELIVERY_HASH]);
    assert.throws(
      () =>
        agentVerifiedEvent(
          { contractId: 'x', at: 0, actor: CLIENT },
          {
            agentId: CLIENT,
            role: 'client',
            deliverySha256: DELIVERY_HASH,
            verdicts: ['met'],
            confidence: 2,
          },
        ),
      RangeError,
    );
  });

  test('criterion keys c1 … c10, both ways', () => {
    assert.deepEqual(criterionKeys(10), ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'c10']);
    assert.equal(criterionIndexOfKey('c10'), 9);
    assert.equal(criterionIndexOfKey(criterionKey(4)), 4);
    assert.throws(() => criterionKey(10), RangeError);
    assert.throws(() => criterionKey(-1), RangeError);
    assert.throws(() => criterionIndexOfKey('c0'), RangeError);
    assert.throws(() => criterionIndexOfKey('c11'), RangeError);
  });

  test('a rejection code must be a machine code, never free text', () => {
    const ctx = { contractId: 'x', at: 0, actor: CLIENT };
    assert.throws(
      () => messageRejectedEvent(ctx, { message: 'vote', code: 'Your criteria text was…' }),
      RangeError,
    );
    assert.throws(
      () => messageRejectedEvent(ctx, { message: 'vote', code: 'late', field: 'a b' }),
      RangeError,
    );
  });
});

describe('a binding fail is never followed by a full payment', () => {
  const criteriaSets: Verdict[][] = [
    ['met', 'met', 'met'],
    ['met', 'not met', 'met'],
    ['not met', 'not met', 'not met'],
    ['met', 'unclear', 'unclear'],
    ['unclear', 'unclear', 'unclear'],
    ['not met', 'unclear', 'met'],
  ];
  for (const criteriaMet of criteriaSets) {
    test(`the settlement rules keep it for ${criteriaMet.join(', ')}`, () => {
      const events = auctionLifecycle(criteriaMet);
      assert.deepEqual(findFullPaymentAfterBindingFail(events), []);
      assert.doesNotThrow(() => assertNoFullPaymentAfterBindingFail(events));
    });
  }

  test('a forged log — fail resolution, then the whole escrow to the Worker — is caught', () => {
    const events = auctionLifecycle(['met', 'not met', 'met']);
    const forgedSettlement = contractSettledEvent(
      { contractId: CONTRACT_ID, at: Date.parse('2025-02-20T00:00:00Z'), actor: 'system' },
      settlementFor(
        { escrow: 1_000n, workerStake: 10n, disputeBond: null },
        ['met', 'met', 'met'],
        DEFAULT_PARAMS,
      ),
    );
    const forged: ContractEvent[] = [...events.slice(0, -1), forgedSettlement];
    assert.deepEqual(findFullPaymentAfterBindingFail(forged), [
      {
        index: forged.length - 1,
        message: `full payment after the binding fail verdict at event ${forged.length - 2}`,
      },
    ]);
    assert.throws(() => assertNoFullPaymentAfterBindingFail(forged), /event log breaks/);
  });

  test('a resolution whose verdict contradicts its successCriteria is caught', () => {
    const resolved = contractResolvedEvent(
      { contractId: CONTRACT_ID, at: 0, actor: 'system' },
      { source: 'panel-tally', criteriaMet: ['met', 'not met'] },
    );
    const violations = findFullPaymentAfterBindingFail([{ ...resolved, verdict: 'pass' }]);
    assert.deepEqual(violations, [
      { index: 0, message: 'resolution verdict pass but its criteria give fail' },
    ]);
  });
});
