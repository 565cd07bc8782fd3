// api/contracts/facts-memo.ts: an Update's answered view (workflows/contract/receipt.ts) completed from
// the views seen before is the view itself, key order included; an auction's quotes only once bidding
// closed; bounded in entries and characters, the oldest dropped first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ContractFactsMemo } from '../../api/contracts/facts-memo';
import { answeredView } from '../../workflows/contract/receipt';
import type { ContractView, QuoteView } from '../../workflows/definitions';

const QUOTE: QuoteView = {
  quoteId: 'q-1',
  bidder: `0x${'b'.repeat(40)}`,
  price: '3000000',
  confidence: null,
  message: 'soon',
  submittedAt: '2026-11-24T00:00:00.000Z',
  bidBond: '300000',
};

function view(contractId: string, overrides: Partial<ContractView> = {}): ContractView {
  return {
    contractId,
    created: true,
    status: 'matched',
    contractType: 'fixed',
    worker: `0x${'a'.repeat(40)}`,
    taskDescription: 'Summarize the report.',
    acceptanceCriteria: ['short', { text: 'json', check: { type: 'quality', minScore: 0.5 } }],
    price: '2500000',
    quoteCount: null,
    quotes: [],
    winningQuoteId: null,
    ...overrides,
  } as ContractView;
}

test('a fixed-price contract: the completed answer is the view, in its key order', () => {
  const memo = new ContractFactsMemo();
  const before = view('c-1', { status: 'created', worker: null });
  memo.remember(before);
  const after = view('c-1', { status: 'under-review' });
  const completed = memo.complete(answeredView(after));
  assert.equal(JSON.stringify(completed), JSON.stringify(after));
  assert.deepEqual(memo.criteriaOf('c-1'), after.acceptanceCriteria);
});

test('an auction: no completion while bidding is open, the frozen quotes once it closed', () => {
  const memo = new ContractFactsMemo();
  const open = view('c-2', { contractType: 'auction', status: 'created', quotes: [], quoteCount: 0 });
  memo.remember(open);
  const matched = view('c-2', {
    contractType: 'auction',
    quotes: [QUOTE],
    quoteCount: 1,
    winningQuoteId: 'q-1',
  });
  assert.equal(memo.complete(answeredView(matched)), undefined, 'the quotes are not known yet');
  memo.remember(matched);
  const disputed = { ...matched, status: 'disputed' as const };
  assert.equal(JSON.stringify(memo.complete(answeredView(disputed))), JSON.stringify(disputed));
});

test('nothing is remembered of a contract never created; an unknown contract completes nothing', () => {
  const memo = new ContractFactsMemo();
  memo.remember(view('c-3', { created: false }));
  assert.equal(memo.criteriaOf('c-3'), undefined);
  assert.equal(memo.complete(answeredView(view('c-4'))), undefined);
});

test('bounded: the oldest entries go first, by count and by characters; one too large is not kept', () => {
  const byCount = new ContractFactsMemo(2);
  for (const id of ['c-a', 'c-b', 'c-c']) byCount.remember(view(id));
  assert.deepEqual(
    ['c-a', 'c-b', 'c-c'].map((id) => byCount.criteriaOf(id) !== undefined),
    [false, true, true],
  );
  const criteria = view('x').acceptanceCriteria.reduce((n, c) => n + JSON.stringify(c).length, 0);
  const size = 'Summarize the report.'.length + criteria;
  const byCharacters = new ContractFactsMemo(100, size * 2);
  for (const id of ['c-d', 'c-e', 'c-f']) byCharacters.remember(view(id));
  assert.deepEqual(
    ['c-d', 'c-e', 'c-f'].map((id) => byCharacters.criteriaOf(id) !== undefined),
    [false, true, true],
  );
  byCharacters.remember(view('c-g', { taskDescription: 'x'.repeat(size * 3) }));
  assert.equal(byCharacters.criteriaOf('c-g'), undefined);
  assert.notEqual(byCharacters.criteriaOf('c-f'), undefined, 'nothing dropped for it');
});
