// Auction routes through app.request() on the real stack (dev server, worker, SQLite ledger): quotes,
// who sees them, the listing with the number of quotes, the award; every refusal changes nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAppHarness } from '../support/service';
import { call, type Json } from './support';
import { BUDGET, contractBody, FUNDS, newAgent } from '../support/fixtures';
import { usdc } from '../support/balances';
import { eventually } from '../support/eventually';

const h = useAppHarness();

describe('POST /contracts/:id/quotes and /award', () => {
  test('an AOP auction: bad quotes refused, quotes seen by the Client only, listing with the count, owner pick', async () => {
    const client = newAgent();
    const [b1, b2, stranger] = [newAgent(), newAgent(), newAgent()];
    for (const a of [client, b1, b2]) await h().fund(a.address, FUNDS);
    const created = await call(h().app, client, 'POST', '/contracts', {
      body: contractBody(undefined, { contractType: 'auction', amount: BUDGET.toString() }),
    });
    assert.equal(created.status, 201, created.text);
    const id: string = created.json.contractId;
    assert.equal(created.json.contractCode, 'AOP');
    const quote = (agent: typeof b1, body: object) =>
      call(h().app, agent, 'POST', `/contracts/${id}/quotes`, { body });

    const refusals: [Json, number, string][] = [
      [await quote(b1, { price: (BUDGET + 1n).toString() }), 400, 'over_budget'],
      [await quote(client, { price: '1000000' }), 403, 'client_cannot_quote'],
      [await quote(b1, { price: '1.5' }), 400, 'invalid_input'],
      [await quote(b1, { price: '1000000', confidence: 2 }), 400, 'invalid_input'],
      [await quote(b1, { price: '1000000', worker: b1.address }), 400, 'invalid_input'],
      [
        await call(h().app, b1, 'POST', `/contracts/c-${'a'.repeat(26)}/quotes`, { body: { price: '1' } }),
        404,
        'contract_not_found',
      ],
    ];
    for (const [res, status, code] of refusals) {
      assert.equal(res.status, status, res.text);
      assert.equal(res.json.error.code, code, res.text);
    }
    const untouched = await call(h().app, client, 'GET', `/contracts/${id}`);
    assert.deepEqual([untouched.json.quoteCount, untouched.json.quotes], [0, []]);
    assert.deepEqual(await usdc(h(), client.address), [FUNDS - BUDGET, BUDGET]);

    const q1 = await quote(b1, { price: '3000000', confidence: 0.7, message: 'two days' });
    assert.equal(q1.status, 201, q1.text);
    assert.equal(q1.json.view, 'public');
    assert.deepEqual(
      [q1.json.ownQuote.bidder, q1.json.ownQuote.price, q1.json.ownQuote.message],
      [b1.address, '3000000', 'two days'],
    );
    const q2 = await quote(b2, { price: '4000000' });
    assert.equal(q2.status, 201, q2.text);

    // The Client sees every quote; a bidder its own only; anyone else the count.
    const forClient = (await call(h().app, client, 'GET', `/contracts/${id}`)).json;
    assert.deepEqual(
      forClient.quotes.map((q: Json) => [q.bidder, q.price]),
      [
        [b1.address, '3000000'],
        [b2.address, '4000000'],
      ],
    );
    const forB2 = (await call(h().app, b2, 'GET', `/contracts/${id}`)).json;
    assert.deepEqual(
      [forB2.view, forB2.quotes, forB2.ownQuote.price, forB2.quoteCount],
      ['public', undefined, '4000000', 2],
    );
    const anonymous = (await call(h().app, undefined, 'GET', `/contracts/${id}`)).json;
    assert.deepEqual([anonymous.quotes, anonymous.ownQuote, anonymous.quoteCount], [undefined, undefined, 2]);
    const forStranger = (await call(h().app, stranger, 'GET', `/contracts/${id}`)).json;
    assert.equal(JSON.stringify(forStranger).includes('3000000'), false);
    const events = (await call(h().app, undefined, 'GET', `/contracts/${id}/events`)).json.events;
    assert.equal(JSON.stringify(events).includes('3000000'), false, 'no price in the event log');

    // Open auctions are listed with the number of quotes, never a price.
    const listed = await eventually(
      async () =>
        (await call(h().app, undefined, 'GET', '/contracts?contractType=auction&status=created')).json,
      (l: Json) => l.contracts.some((c: Json) => c.contractId === id && c.quoteCount === 2),
    );
    assert.deepEqual(Object.keys(listed.contracts.find((c: Json) => c.contractId === id)).sort(), [
      'closedAt',
      'contractCode',
      'contractId',
      'createdAt',
      'nextDeadline',
      'quoteCount',
      'status',
    ]);

    const award = (agent: typeof b1, body: object) =>
      call(h().app, agent, 'POST', `/contracts/${id}/award`, { body });
    const unknown = await award(client, { quoteId: 'q-404' });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.json.error.code, 'unknown_quote');
    const notClient = await award(b1, {});
    assert.equal(notClient.status, 403, notClient.text);
    const still = (await call(h().app, client, 'GET', `/contracts/${id}`)).json;
    assert.deepEqual([still.status, still.quoteCount, still.worker], ['created', 2, null]);
    assert.deepEqual(await usdc(h(), client.address), [FUNDS - BUDGET, BUDGET]);

    const picked = await award(client, { quoteId: forB2.ownQuote.quoteId });
    assert.equal(picked.status, 200, picked.text);
    assert.deepEqual(
      [
        picked.json.status,
        picked.json.worker,
        picked.json.price,
        picked.json.escrowedFunds,
        picked.json.workerStake,
      ],
      ['matched', b2.address, '4000000', '4000000', '400000'],
    );
    assert.deepEqual(await usdc(h(), client.address), [FUNDS - 4_000_000n, 4_000_000n]);
    assert.deepEqual(await usdc(h(), b2.address), [FUNDS - 400_000n, 400_000n]);
    assert.deepEqual(await usdc(h(), b1.address), [FUNDS, 0n]);
    // The matched Worker is a party now, but still does not see the other bid.
    const forWorker = (await call(h().app, b2, 'GET', `/contracts/${id}`)).json;
    assert.deepEqual(
      [forWorker.role, forWorker.quotes, forWorker.ownQuote.price],
      ['worker', undefined, '4000000'],
    );

    const late = await quote(b1, { price: '1000000' });
    assert.equal(late.status, 409, late.text);
    const again = await award(client, {});
    assert.equal(again.status, 409, again.text);
    assert.deepEqual(await usdc(h(), b1.address), [FUNDS, 0n]);
    assert.deepEqual(await usdc(h(), client.address), [FUNDS - 4_000_000n, 4_000_000n]);
  });

  test('a quote or an award on a fixed-price contract is refused', async () => {
    const client = newAgent();
    const bidder = newAgent();
    await h().fund(client.address, FUNDS);
    const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(undefined) });
    const id: string = created.json.contractId;
    const q = await call(h().app, bidder, 'POST', `/contracts/${id}/quotes`, { body: { price: '1000' } });
    assert.deepEqual([q.status, q.json.error.code], [409, 'not_an_auction']);
    const a = await call(h().app, client, 'POST', `/contracts/${id}/award`, { body: {} });
    assert.deepEqual([a.status, a.json.error.code], [409, 'not_an_auction']);
    assert.equal((await call(h().app, client, 'POST', `/contracts/${id}/cancel`, { body: {} })).status, 200);
    assert.deepEqual(await usdc(h(), client.address), [FUNDS, 0n]);
  });
});
