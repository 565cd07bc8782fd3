// A full auction cap never refuses a better quote (docs/auction.md): 100 keys fill the cap with bonded
// junk; an honest, lower, funded quote still gets 201 and replaces the worst standing quote, whose
// bidder has its bond back in the same ledger batch; a newcomer no better than the worst is refused
// and nothing moves. Dev server, worker and SQLite ledger, through the API.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUDGET as CAPS } from '../../workflows/rules/budget';
import { useAppHarness } from '../support/service';
import { call, type Json } from '../api/support';
import { created, fundedAgents, openHolds, pool } from './support';
import { FUNDS, newAgent } from '../support/fixtures';
import { usdc } from '../support/balances';

const h = useAppHarness();

/** The bid bond of a junk price (the Worker Stake floor, 0.1 USDC): all a junk key holds. */
const JUNK_FUNDS = 100_000n;
const JUNK_PRICE = 900_000n;

describe('bidder cap crowd-out', () => {
  test('100 bonded junk quotes fill the cap; an honest lower quote replaces the worst, whose bond comes back', async () => {
    const [client, honest, late] = await fundedAgents(h(), 3);
    const id = await created(h(), client!, { contractType: 'auction', amount: '5000000' });
    const quote = (agent: typeof honest, price: bigint) =>
      call(h().app, agent!, 'POST', `/contracts/${id}/quotes`, { body: { price: price.toString() } });

    const junk = Array.from({ length: CAPS.biddersPerContract }, newAgent);
    for (const a of junk) await h().fund(a.address, JUNK_FUNDS);
    // Junk i quotes JUNK_PRICE + i: the last key holds the worst quote.
    const answers = await pool(junk, 4, (a) => quote(a, JUNK_PRICE + BigInt(junk.indexOf(a))));
    assert.deepEqual(
      answers.map((a) => a.status),
      junk.map(() => 201),
    );
    const worst = junk.at(-1)!;
    assert.deepEqual(await usdc(h(), worst), [0n, JUNK_FUNDS]);

    // A newcomer no better than the worst: refused, nothing moves.
    const tooHigh = await quote(late, JUNK_PRICE + BigInt(junk.length));
    assert.equal(tooHigh.status, 409, tooHigh.text);
    assert.equal(tooHigh.json.error.code, 'bidder_limit');
    assert.deepEqual(await usdc(h(), late!), [FUNDS, 0n]);

    const better = await quote(honest, 800_000n);
    assert.equal(better.status, 201, better.text);
    assert.equal(better.json.ownQuote.price, '800000');
    assert.deepEqual(await usdc(h(), honest!), [FUNDS - 100_000n, 100_000n]);
    // The replaced bidder's bond is released; every other junk bond still held.
    assert.deepEqual(await usdc(h(), worst), [JUNK_FUNDS, 0n]);
    assert.deepEqual(await usdc(h(), junk[0]!), [0n, JUNK_FUNDS]);
    const view = (await call(h().app, client!, 'GET', `/contracts/${id}`)).json;
    assert.equal(view.quoteCount, CAPS.biddersPerContract);
    assert.equal(
      view.quotes.some((q: Json) => q.bidder === worst.address),
      false,
    );
    // The same late bidder, now better than the new worst (junk 98), is taken too.
    const retried = await quote(late, JUNK_PRICE + BigInt(junk.length - 2) - 1n);
    assert.equal(retried.status, 201, retried.text);
    assert.deepEqual(await usdc(h(), junk.at(-2)!), [JUNK_FUNDS, 0n]);

    const awarded = await call(h().app, client!, 'POST', `/contracts/${id}/award`, { body: {} });
    assert.equal(awarded.status, 200, awarded.text);
    assert.deepEqual([awarded.json.status, awarded.json.worker], ['matched', honest!.address]);
    for (const a of junk) assert.deepEqual(await usdc(h(), a), [JUNK_FUNDS, 0n]);
    assert.deepEqual(await usdc(h(), late!), [FUNDS, 0n]);
    const holds = (await openHolds(h(), id)).map((x) => x.amount.toString()).sort();
    assert.deepEqual(holds, ['100000', '800000']);
  });
});
