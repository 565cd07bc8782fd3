// The open-tender race (docs/protocol.md §5): 50 funded agents accept at once through the API → exactly one
// matched, 49 refused with 409, exactly one stake held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentApiError } from '../../sdk/typescript';
import { useServiceHarness } from '../support/service';
import { agent, fixedTerms, fund } from './support';
import { FUNDS, PRICE } from '../support/fixtures';

const RACERS = 50;
const h = useServiceHarness();

test(`${RACERS} agents accept an open tender at once: one wins, ${RACERS - 1} get 409`, async () => {
  const client = agent(h());
  await fund(h(), client.address);
  const racers = Array.from({ length: RACERS }, () => agent(h()));
  await Promise.all(racers.map((r) => fund(h(), r.address)));
  const { contractId } = await client.createContract(fixedTerms());

  const results = await Promise.allSettled(racers.map((r) => r.accept(contractId)));
  const winners = results.flatMap((r, i) => (r.status === 'fulfilled' ? [racers[i]!] : []));
  const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  assert.equal(winners.length, 1);
  assert.equal(refusals.length, RACERS - 1);
  for (const err of refusals) {
    assert.ok(err instanceof AgentApiError, String(err));
    assert.equal(err.status, 409, err.message);
  }

  const winner = winners[0]!;
  const view = await client.getContract(contractId);
  assert.equal(view.status, 'matched');
  assert.equal(view.view === 'party' && view.worker, winner.address);

  const stakes = (await h().ledger().holdsByContract(contractId)).filter(
    (x) => x.kind === 'stake' && x.status === 'open',
  );
  assert.equal(stakes.length, 1);
  assert.equal(stakes[0]!.owner, `agent:${winner.address}`);
  const stake = PRICE / 10n;
  for (const r of racers) {
    const { USDC } = await h().balances(r.address);
    const mine = r === winner;
    assert.deepEqual([USDC.available, USDC.held], mine ? [FUNDS - stake, stake] : [FUNDS, 0n]);
  }
});
