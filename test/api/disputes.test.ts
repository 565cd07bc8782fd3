// Disputes and votes through app.request() on the real stack (dev server, worker, SQLite ledger and
// vault): FDP, the Client disputes, three Backup Agents vote; sealed votes (409), the open-panel
// unlock refusal (409), key release to the drawn BAs (§9), refusals, then the vote rows by contract
// and by agent and the exact USDC and OCT balances of all five parties.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { useAppHarness } from '../support/service';
import { call, eligibleAgents } from './support';
import {
  BA_FUNDS,
  contractBody,
  DELIVERY_REF,
  DISPUTE_BOND,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  newAgent,
  PANEL_FEE,
  PRICE,
  type TestAgent,
} from '../support/fixtures';

const h = useAppHarness();

describe('POST /contracts/:id/disputes and /votes, GET votes', () => {
  test('a privacy-preserving dispute decided by three BAs (partially met)', async () => {
    const client = newAgent();
    const worker = newAgent();
    const stranger = newAgent();
    await h().fund(client.address, FUNDS);
    await h().fund(worker.address, FUNDS);
    const bas = await eligibleAgents(h(), 3);
    const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
    assert.equal(created.status, 201, created.text);
    const id: string = created.json.contractId;
    assert.equal((await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} })).status, 200);
    const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: { ...DELIVERY_REF, content: { text: 'done' } },
    });
    assert.equal(delivered.status, 200, delivered.text);
    // Privacy-preserving: no BA is drawn yet, so none gets the delivery key.
    assert.equal((await call(h().app, bas[0], 'GET', `/contracts/${id}/keys/delivery`)).status, 403);
    assert.equal(
      (await call(h().app, bas[0], 'POST', `/contracts/${id}/votes`, { body: { votes: ['met', 'met'] } }))
        .status,
      409,
    );

    const badClaims = await call(h().app, client, 'POST', `/contracts/${id}/disputes`, {
      body: { claims: ['maybe'] },
    });
    assert.equal(badClaims.status, 400, badClaims.text);
    assert.equal(
      (await call(h().app, worker, 'POST', `/contracts/${id}/disputes`, { body: {} })).status,
      403,
    );
    const disputed = await call(h().app, client, 'POST', `/contracts/${id}/disputes`, {
      body: { claims: ['met', 'not met'] },
    });
    assert.equal(disputed.status, 200, disputed.text);
    assert.equal(disputed.json.status, 'disputed');
    assert.deepEqual([...disputed.json.backupAgents].sort(), bas.map((b) => b.address).sort());

    const key = await call(h().app, bas[1], 'GET', `/contracts/${id}/keys/delivery`);
    assert.equal(key.status, 200, key.text);
    assert.equal(key.json.key, DELIVERY_REF.key);
    assert.equal((await call(h().app, stranger, 'GET', `/contracts/${id}/keys/delivery`)).status, 403);
    // Unlocking while seated frees only the free part: the seat keeps its bond held.
    const unlock = await call(h().app, bas[0], 'POST', '/eligibility/unlock', { body: {} });
    assert.equal(unlock.status, 200, unlock.text);
    assert.equal(unlock.json.balances.USDC.held, DEFAULT_PARAMS.baBond.toString());

    const vote = (ba: TestAgent, votes: string[]) =>
      call(h().app, ba, 'POST', `/contracts/${id}/votes`, { body: { votes } });
    assert.equal((await vote(bas[0]!, ['met', 'not met'])).status, 200);
    assert.equal((await vote(bas[0]!, ['met', 'not met'])).status, 409, 'a second vote');
    assert.equal((await vote(stranger, ['met', 'met'])).status, 403, 'not on the panel');
    assert.equal((await vote(bas[1]!, ['met'])).status, 400, 'one verdict per criterion');
    const sealed = await call(h().app, undefined, 'GET', `/contracts/${id}/votes`);
    assert.equal(sealed.status, 409, sealed.text);
    assert.equal(sealed.json.error.code, 'votes_sealed');
    assert.equal((await vote(bas[1]!, ['met', 'not met'])).status, 200);
    const last = await vote(bas[2]!, ['not met', 'not met']);
    assert.equal(last.status, 200, last.text);
    // The tally stands through the appeal window, unless both parties waive their appeal.
    const tallied = (await call(h().app, client, 'GET', `/contracts/${id}`)).json;
    assert.equal(tallied.status, 'resolved');
    assert.deepEqual(tallied.mayAppeal, ['client', 'worker']);
    assert.equal(
      (await call(h().app, stranger, 'POST', `/contracts/${id}/appeals`, { body: {} })).status,
      403,
    );
    for (const party of [client, worker]) {
      const waived = await call(h().app, party, 'POST', `/contracts/${id}/appeals`, {
        body: { waive: true },
      });
      assert.equal(waived.status, 200, waived.text);
    }

    // The tally closes the contract; the last vote answers as soon as its ballot is in.
    let view;
    for (let i = 0; i < 50; i++) {
      view = (await call(h().app, client, 'GET', `/contracts/${id}`)).json;
      if (view.status.startsWith('settled-')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(view.status, 'settled-partially-met');
    assert.deepEqual(view.criteriaMet, ['met', 'not met']);

    const rows = await call(h().app, undefined, 'GET', `/contracts/${id}/votes`);
    assert.equal(rows.status, 200, rows.text);
    assert.equal(rows.json.rows.length, 6);
    const ba2Rows = rows.json.rows.filter((r: { backupAgent: string }) => r.backupAgent === bas[2]!.address);
    assert.deepEqual(
      ba2Rows.map((r: Record<string, unknown>) => [
        r.criterionIndex,
        r.vote,
        r.majorityOutcome,
        r.bondOutcome,
        r.reward,
      ]),
      [
        [0, 'not met', 'met', 'slashed', '0'],
        [1, 'not met', 'not met', 'returned', '1000000'],
      ],
    );
    const byAgent = await call(h().app, undefined, 'GET', `/agents/${bas[0]!.address}/votes`);
    assert.equal(byAgent.status, 200, byAgent.text);
    assert.deepEqual(
      byAgent.json.rows.map((r: Record<string, unknown>) => [
        r.contractId,
        r.milestoneIndex,
        r.criterionIndex,
        r.reward,
      ]),
      [
        [id, null, 0, '1000000'],
        [id, null, 1, '1000000'],
      ],
    );

    const payment = PRICE / 2n;
    const usdc = async (who: string) => {
      const b = await h().balances(who);
      return [b.USDC.available, b.USDC.held, b.OCT.available];
    };
    // The dispute bond is returned; the panel fee, not returned, is paid evenly to the three BAs, who all voted.
    assert.deepEqual(await usdc(client.address), [FUNDS - payment - PANEL_FEE, 0n, 0n]);
    assert.deepEqual(await usdc(worker.address), [FUNDS + payment, 0n, 0n]);
    // It unlocked its free stake while seated: only the seat's bond came back into its stake.
    assert.deepEqual(await usdc(bas[0]!.address), [
      BA_FUNDS - DEFAULT_PARAMS.baBond + FEE_SHARE,
      DEFAULT_PARAMS.baBond,
      2_000_000n,
    ]);
    assert.deepEqual(await usdc(bas[1]!.address), [
      BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE,
      ELIGIBILITY_STAKE,
      2_000_000n,
    ]);
    // BA2 voted `not met` on c1 (majority met): its 5 USDC slice from its seat to the Treasury.
    assert.deepEqual(await usdc(bas[2]!.address), [
      BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE,
      ELIGIBILITY_STAKE - 5_000_000n,
      1_000_000n,
    ]);
    const treasury = await h().ledger.balances('treasury');
    assert.equal(treasury.USDC.available, 5_000_000n);
    assert.ok(DISPUTE_BOND > 0n);
    const unlocked = await call(h().app, bas[0], 'POST', '/eligibility/unlock', { body: {} });
    assert.equal(unlocked.status, 200, unlocked.text);
  });
});
