// The Temporal budget (dev server, real ledger): one agent floods an auction with 2,500 quote replacements,
// and an open tender with 2,500 failed accepts; its capped messages are refused before an Update exists
// or in the Update's validator (no history), the honest flow still ends settled-fully-met with exact
// balances, and each run's history stays far below Temporal's limits.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { acceptUpdate, contractWorkflowId } from '../../workflows/definitions';
import { BUDGET } from '../../workflows/rules/budget';
import { createTemporalClient } from '../../service/temporal-client';
import { useAppHarness } from '../support/service';
import { call, type Json } from '../api/support';
import { created, deliverAndApprove, fundedAgents, historyLength, openHolds, pool, tally } from './support';
import { FUNDS, newAgent } from '../support/fixtures';
import { usdc } from '../support/balances';

const h = useAppHarness();

const FLOOD = 2_500;
const CONCURRENCY = 8;
const HISTORY_CEILING = 10_240;
const times = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('a flood of capped messages (the Temporal budget)', () => {
  test('an auction: 2,500 quote replacements from one agent; the honest award settles', async () => {
    const [client, bidder] = await fundedAgents(h(), 2);
    const attacker = newAgent();
    const id = await created(h(), client!, { contractType: 'auction', amount: '5000000' });
    const path = (what: string) => `/contracts/${id}/${what}`;

    const quotes = await pool(times(FLOOD), CONCURRENCY, (i) =>
      call(h().app, attacker, 'POST', path('quotes'), { body: { price: String(4_000_000 + i) } }),
    );
    // A 503 (the view's query timed out on a loaded machine) may hide a quote the workflow took: the
    // workflow's own log says how many it took.
    const answers = tally(quotes);
    const unavailable = answers['503 temporal_unavailable'] ?? 0;
    assert.deepEqual(Object.keys(answers).sort(), [
      '201',
      '409 quote_limit',
      ...(unavailable ? ['503 temporal_unavailable'] : []),
    ]);
    assert.ok(unavailable <= 5, JSON.stringify(answers));
    assert.ok(answers['201']! + unavailable >= BUDGET.quotesPerBidder, JSON.stringify(answers));
    assert.equal(answers['409 quote_limit'], FLOOD - answers['201']! - unavailable);
    const log = await call(h().app, client, 'GET', path('events'));
    const taken = log.json.events.filter(
      (e: Json) => e.type === 'contract.quote-received' && e.actor === attacker.address,
    );
    assert.equal(taken.length, BUDGET.quotesPerBidder);

    const honest = await call(h().app, bidder, 'POST', path('quotes'), { body: { price: '3000000' } });
    assert.equal(honest.status, 201, honest.text);
    const awarded = await call(h().app, client, 'POST', path('award'), {
      body: { quoteId: honest.json.ownQuote.quoteId },
    });
    assert.equal(awarded.status, 200, awarded.text);
    assert.deepEqual([awarded.json.status, awarded.json.worker], ['matched', bidder!.address]);
    await deliverAndApprove(h(), id, bidder!, client!);

    assert.deepEqual(await usdc(h(), client!), [FUNDS - 3_000_000n, 0n]);
    assert.deepEqual(await usdc(h(), bidder!), [FUNDS + 3_000_000n, 0n]);
    assert.deepEqual(await usdc(h(), attacker), [0n, 0n]);
    assert.deepEqual(await openHolds(h(), id), []);
    const events = await historyLength(h(), id);
    assert.ok(events < HISTORY_CEILING, `${events} history events`);
    console.log(`auction flood: ${events} history events`);
  });

  test('an open tender: 2,500 unfunded accepts through the API, 60 more by Update; the honest accept settles', async () => {
    const [client, worker] = await fundedAgents(h(), 2);
    const attacker = newAgent();
    const id = await created(h(), client!, {});

    // The API refuses an accept that cannot fund its stake before any Update exists.
    const accepts = await pool(times(FLOOD), CONCURRENCY, () =>
      call(h().app, attacker, 'POST', `/contracts/${id}/accept`, { body: {} }),
    );
    const refused = tally(accepts);
    assert.ok((refused['503 temporal_unavailable'] ?? 0) <= 5, JSON.stringify(refused));
    assert.equal(refused['402 insufficient_funds'], FLOOD - (refused['503 temporal_unavailable'] ?? 0));
    const logged = (await call(h().app, client, 'GET', `/contracts/${id}/events`)).json.events;
    assert.deepEqual(
      logged.filter((e: Json) => e.actor === attacker.address),
      [],
      'no accept of the attacker reached the workflow',
    );

    // Past the API (e.g. a holder of the codec key): 12 unfunded agents, 5 accepts each, sent as Updates.
    // Each agent's lock may fail at most 3 times; past 30 in total, only an agent's first try is let in.
    const temporal = createTemporalClient({
      connection: h().env.connection,
      namespace: h().env.namespace ?? 'default',
      codecKey: h().settings.payloadCodecKey,
    });
    const handle = temporal.workflow.getHandle(contractWorkflowId(id));
    const sybils = Array.from({ length: 12 }, newAgent);
    const outcomes = await pool(sybils, sybils.length, async (sybil) => {
      const codes: string[] = [];
      for (const _ of times(5)) {
        codes.push(
          await handle.executeUpdate(acceptUpdate, { args: [{ caller: sybil.address }] }).then(
            () => 'accepted',
            (error: unknown) => {
              assert.ok(error instanceof WorkflowUpdateFailedError, String(error));
              assert.ok(error.cause instanceof ApplicationFailure);
              return (error.cause.details?.[0] as { code: string }).code;
            },
          ),
        );
      }
      return codes;
    });
    const failedLocks = outcomes.map((codes) => codes.filter((c) => c === 'insufficient_funds').length);
    for (const [i, codes] of outcomes.entries()) {
      assert.ok(failedLocks[i]! <= BUDGET.failedLocksPerAgent, codes.join());
      const others = codes.filter((c) => c !== 'insufficient_funds');
      assert.deepEqual(
        others.filter((c) => c !== 'lock_limit' && c !== 'lock_limit_total'),
        [],
      );
      assert.equal(others.length, 5 - failedLocks[i]!);
    }
    const total = failedLocks.reduce((a, b) => a + b, 0);
    // Past the total only an agent that never failed may try: each agent's first try is always let in.
    assert.ok(total >= BUDGET.failedLocksPerAgent, `${total}`);
    assert.ok(total <= BUDGET.failedLocksPerContract + sybils.length, `${total}`);
    assert.ok(total < sybils.length * BUDGET.failedLocksPerAgent, `${total}: the total cap never bit`);

    const accepted = await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual([accepted.json.status, accepted.json.workerStake], ['matched', '250000']);
    await deliverAndApprove(h(), id, worker!, client!);

    assert.deepEqual(await usdc(h(), client!), [FUNDS - 2_500_000n, 0n]);
    assert.deepEqual(await usdc(h(), worker!), [FUNDS + 2_500_000n, 0n]);
    for (const a of [attacker, ...sybils]) assert.deepEqual(await usdc(h(), a), [0n, 0n]);
    assert.deepEqual(await openHolds(h(), id), []);
    const events = await historyLength(h(), id);
    assert.ok(events < HISTORY_CEILING, `${events} history events`);
    console.log(`open tender flood: ${events} history events`);
  });
});
