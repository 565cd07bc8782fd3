import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Address } from '../../workflows/rules/address';
import {
  beatsBest,
  bestQuote,
  checkQuote,
  displacedQuote,
  matchOrder,
  quoteBodySchema,
  rankQuotes,
  remainingBidders,
  type Quote,
} from '../../workflows/rules/auction';

const addr = (n: number) => ('0x' + n.toString(16).padStart(40, '0')) as Address;
let seq = 0;
const quote = (
  id: string,
  bidder: number,
  price: bigint,
  confidence: number | null,
  submittedAt: number,
): Quote => ({
  quoteId: id,
  bidder: addr(bidder),
  price,
  confidence,
  submittedAt,
  sequence: seq++,
});

describe('ranking', () => {
  test('lowest price wins', () => {
    const qs = [quote('a', 1, 300n, 1, 0), quote('b', 2, 200n, 0, 5), quote('c', 3, 250n, null, 1)];
    assert.deepEqual(
      rankQuotes(qs).map((q) => q.quoteId),
      ['b', 'c', 'a'],
    );
  });

  test('equal price: higher confidence, and a missing confidence ranks below any given one (even 0)', () => {
    const qs = [
      quote('none', 1, 100n, null, 0),
      quote('zero', 2, 100n, 0, 1),
      quote('high', 3, 100n, 0.9, 2),
    ];
    assert.deepEqual(
      rankQuotes(qs).map((q) => q.quoteId),
      ['high', 'zero', 'none'],
    );
  });

  test('equal price and confidence: earliest submission, then arrival order', () => {
    const qs = [
      quote('late', 1, 100n, 0.5, 20),
      quote('early', 2, 100n, 0.5, 10),
      quote('same-instant', 3, 100n, 0.5, 10),
    ];
    assert.deepEqual(
      rankQuotes(qs).map((q) => q.quoteId),
      ['early', 'same-instant', 'late'],
    );
  });

  test('bestQuote of none is undefined', () => {
    assert.equal(bestQuote([]), undefined);
    assert.equal(bestQuote([quote('only', 1, 5n, null, 0)])?.quoteId, 'only');
  });

  test('match order: the best quote, then the next best, one entry per bidder', () => {
    const qs = [
      quote('a1', 1, 100n, null, 0),
      quote('b', 2, 150n, null, 1),
      quote('a2', 1, 120n, null, 2),
      quote('c', 3, 110n, null, 3),
    ];
    assert.deepEqual(
      matchOrder(qs).map((q) => q.quoteId),
      ['a1', 'c', 'b'],
    );
  });

  test('ranking is a total order independent of input order', () => {
    const arb = fc.uniqueArray(
      fc.record({
        bidder: fc.integer({ min: 1, max: 50 }),
        price: fc.bigInt({ min: 1n, max: 5n }),
        confidence: fc.option(fc.constantFrom(0, 0.5, 1)),
        submittedAt: fc.integer({ min: 0, max: 3 }),
        sequence: fc.integer({ min: 0, max: 1000 }),
      }),
      { selector: (q) => q.sequence, maxLength: 12 },
    );
    fc.assert(
      fc.property(arb, (raw) => {
        const qs: Quote[] = raw.map((r, i) => ({ ...r, quoteId: `q${i}`, bidder: addr(r.bidder) }));
        const ranked = rankQuotes(qs);
        assert.deepEqual(rankQuotes([...qs].reverse()), ranked);
        for (let i = 1; i < ranked.length; i++) assert.ok(ranked[i - 1]!.price <= ranked[i]!.price);
      }),
    );
  });
});

describe('a full cap (displacedQuote)', () => {
  test('a newcomer replaces the worst only when it ranks above it; a tie goes to the standing quote', () => {
    const standing = [quote('a', 1, 100n, 0.5, 0), quote('b', 2, 300n, 0.5, 1), quote('c', 3, 200n, null, 2)];
    assert.equal(displacedQuote(standing, quote('n', 9, 299n, null, 10))?.quoteId, 'b');
    assert.equal(displacedQuote(standing, quote('n', 9, 300n, 0.6, 10))?.quoteId, 'b');
    assert.equal(displacedQuote(standing, quote('n', 9, 300n, 0.5, 10)), null);
    assert.equal(displacedQuote(standing, quote('n', 9, 301n, 1, 10)), null);
    assert.equal(beatsBest(standing, quote('n', 9, 99n, null, 10)), true);
    assert.equal(beatsBest(standing, quote('n', 9, 100n, 0.5, 10)), false);
  });

  test('property: admitting arrivals one by one at a cap keeps exactly the best `cap` of them', () => {
    const arrival = fc.record({
      price: fc.bigInt({ min: 1n, max: 20n }),
      confidence: fc.option(fc.constantFrom(0, 0.5, 1), { nil: null }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(arrival, { maxLength: 40 }), (cap, arrivals) => {
        let standing: Quote[] = [];
        const all = arrivals.map((a, i) => quote(`q${i}`, i, a.price, a.confidence, i));
        for (const q of all) {
          if (standing.length < cap) standing.push(q);
          else {
            const out = displacedQuote(standing, q);
            if (out !== null) standing = [...standing.filter((s) => s !== out), q];
          }
        }
        assert.deepEqual(
          rankQuotes(standing).map((q) => q.quoteId),
          rankQuotes(all)
            .slice(0, cap)
            .map((q) => q.quoteId),
        );
      }),
    );
  });
});

describe('checkQuote', () => {
  const base = {
    bidder: addr(5),
    client: addr(1),
    price: 100n,
    budget: 100n,
    now: 9,
    matchDeadline: 10,
    quotes: [{ bidder: addr(6) }],
  };
  test('a quote at the budget cap, before the deadline, is accepted', () =>
    assert.equal(checkQuote(base), null));
  test('the Client cannot quote', () =>
    assert.equal(checkQuote({ ...base, bidder: addr(1) })?.code, 'own_contract'));
  test('over the budget', () => assert.equal(checkQuote({ ...base, price: 101n })?.code, 'over_budget'));
  test('at the Match Deadline bidding is closed', () =>
    assert.equal(checkQuote({ ...base, now: 10 })?.code, 'bidding_closed'));
  test('one quote per bidder', () =>
    assert.equal(checkQuote({ ...base, bidder: addr(6) })?.code, 'already_quoted'));
});

describe('quoteBodySchema', () => {
  test('accepts price with optional confidence and message', () => {
    assert.deepEqual(quoteBodySchema.parse({ price: '900', confidence: 0.7, message: 'hi' }), {
      price: 900n,
      confidence: 0.7,
      message: 'hi',
    });
  });
  for (const [body, field] of [
    [{ price: '0' }, 'price'],
    [{ price: 900 }, 'price'],
    [{ price: '900', confidence: 1.1 }, 'confidence'],
    [{ price: '900', confidence: -0.1 }, 'confidence'],
    [{ price: '900', bidder: addr(1) }, ''],
  ] as const) {
    test(`refuses ${JSON.stringify(body)}`, () => {
      const result = quoteBodySchema.safeParse(body);
      assert.equal(result.success, false);
      assert.equal(result.error!.issues[0]!.path.join('.'), field);
    });
  }
});

describe('remainingBidders', () => {
  test('every other bidder once, sorted', () => {
    assert.deepEqual(
      remainingBidders(
        [{ bidder: addr(3) }, { bidder: addr(2) }, { bidder: addr(3) }, { bidder: addr(9) }],
        addr(9),
      ),
      [addr(2), addr(3)],
    );
  });
});
