// Seat exhaustion through the API (docs/security.md "What it costs to trigger", docs/protocol.md §8): an
// attacker's two keys open standard-mode direct contracts at a price of one micro-unit until every seat of
// a 3-agent registry is held, and never waive their appeal windows. Two honest contracts delivered after
// wait for a panel; each is seated within seconds of seats freeing, in the order they started waiting,
// and settles; the attacker paid at least panelFeePerSeat for every seat it pinned, read from the ledger.
// Dev server (real time, short windows), worker and SQLite ledger.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAppHarness } from '../support/service';
import { call, eligibleAgents, type Json } from './support';
import { eventually } from '../support/eventually';
import {
  BA_FUNDS,
  contractBody,
  DELIVERY_REF,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  newAgent,
  PANEL_FEE,
  PRICE,
  type TestAgent,
} from '../support/fixtures';
import { usdc } from '../support/balances';

/** A seat holds half an eligibility stake: each of the 3 agents holds 2 seats, the registry 2 panels. */
const BA_BOND = ELIGIBILITY_STAKE / 2n;
const APPEAL_WINDOW_MS = 4_000;
const h = useAppHarness({
  params: {
    baBond: BA_BOND.toString(),
    appealWindow: APPEAL_WINDOW_MS,
    baVotingWindow: 120_000,
    baRecruitmentWindow: 300_000,
  },
});
const MIN_WORKER_STAKE = 100_000n;

const view = async (who: TestAgent, id: string): Promise<Json> => {
  const res = await call(h().app, who, 'GET', `/contracts/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.json;
};
/** When the contract's log first records `type` (ms since the epoch). */
async function firstAt(who: TestAgent, id: string, type: string): Promise<number> {
  const res = await call(h().app, who, 'GET', `/contracts/${id}/events`);
  const event = (res.json.events as Json[]).find((e) => e.type === type);
  assert.ok(event, `${id} has no ${type}`);
  return Date.parse(event.at);
}
const seated = (v: Json) => v.backupAgents.length > 0 && v.panelPending === false;

/** A standard-mode direct contract, accepted and delivered: its panel is drawn, or it waits for one. */
async function delivered(client: TestAgent, worker: TestAgent, amount: bigint): Promise<string> {
  const created = await call(h().app, client, 'POST', '/contracts', {
    body: contractBody(worker.address, { verificationMode: 'standard', amount: amount.toString() }),
  });
  assert.equal(created.status, 201, created.text);
  const id: string = created.json.contractId;
  const accepted = await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} });
  assert.equal(accepted.status, 200, accepted.text);
  const sent = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, { body: DELIVERY_REF });
  assert.equal(sent.status, 200, sent.text);
  return id;
}

describe('seat exhaustion', () => {
  test('junk contracts pin every seat; honest contracts are seated in waiting order within seconds of seats freeing; each pinned seat cost ≥ panelFeePerSeat', async () => {
    const bas = await eligibleAgents(h(), 3);
    const byAddress = new Map(bas.map((a) => [a.address, a]));
    const vote = async (id: string, members: string[]) => {
      for (const a of members) {
        const res = await call(h().app, byAddress.get(a)!, 'POST', `/contracts/${id}/votes`, {
          body: { votes: ['met', 'met'] },
        });
        assert.equal(res.status, 200, res.text);
      }
    };

    // The attacker: exactly the money its junk contracts need (escrow of 1, the panel fee, the floor stake).
    const JUNK = 2;
    const [attackerClient, attackerWorker] = [newAgent(), newAgent()];
    const attackerFunds = BigInt(JUNK) * (1n + PANEL_FEE) + BigInt(JUNK) * MIN_WORKER_STAKE;
    await h().fund(attackerClient.address, BigInt(JUNK) * (1n + PANEL_FEE));
    await h().fund(attackerWorker.address, BigInt(JUNK) * MIN_WORKER_STAKE);
    const junk: string[] = [];
    for (let i = 0; i < JUNK; i++) junk.push(await delivered(attackerClient, attackerWorker, 1n));
    const junkPanels: string[][] = [];
    for (const id of junk)
      junkPanels.push((await eventually(() => view(attackerClient, id), seated)).backupAgents);
    // Every seat is held: each agent's whole stake is on the attacker's panels.
    for (const ba of bas)
      assert.deepEqual(await usdc(h(), ba), [BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE]);
    for (const ba of bas) assert.equal((await h().ledger.panels.openPanelsOf(ba.address)).length, JUNK);

    // Two honest contracts delivered after: both wait, first come first.
    const honest = [
      { client: newAgent(), worker: newAgent() },
      { client: newAgent(), worker: newAgent() },
    ];
    const ids: string[] = [];
    for (const p of honest) {
      await h().fund(p.client.address, FUNDS);
      await h().fund(p.worker.address, FUNDS);
      ids.push(await delivered(p.client, p.worker, PRICE));
    }
    const [h1, h2] = ids as [string, string];
    for (const [i, id] of ids.entries())
      await eventually(
        () => view(honest[i]!.client, id),
        (v) => v.panelPending === true,
      );
    assert.deepEqual(
      (await h().ledger.panels.waitlist()).map((e) => e.contractId),
      [h1, h2],
    );

    // The honest BAs vote on the first junk panel; the attacker never waives, so its seats stay
    // pinned through the appeal window. When it settles, H1 (waiting first) is seated; H2 waits on.
    await vote(junk[0]!, junkPanels[0]!);
    const firstSeated = await eventually(() => view(honest[0]!.client, h1), seated, 30_000);
    const freed = await firstAt(attackerClient, junk[0]!, 'contract.settled');
    const seatedH1 = await firstAt(honest[0]!.client, h1, 'contract.panel-drawn');
    assert.equal((await view(honest[1]!.client, h2)).panelPending, true, 'H2 waits its turn');
    assert.deepEqual(
      (await h().ledger.panels.waitlist()).map((e) => e.contractId),
      [h2],
    );

    await vote(junk[1]!, junkPanels[1]!);
    const secondSeated = await eventually(() => view(honest[1]!.client, h2), seated, 30_000);
    const freedAgain = await firstAt(attackerClient, junk[1]!, 'contract.settled');
    const seatedH2 = await firstAt(honest[1]!.client, h2, 'contract.panel-drawn');
    const delays = [seatedH1 - freed, seatedH2 - freedAgain];
    for (const d of delays) assert.ok(d >= 0 && d < 5_000, `seated ${d} ms after the seats freed`);
    assert.ok(seatedH1 < seatedH2, 'seated in waiting order');
    assert.deepEqual(await h().ledger.panels.waitlist(), []);

    // The honest parties' next steps succeed: the panels vote, both waive, each settles in full.
    for (const [i, panel] of [firstSeated.backupAgents, secondSeated.backupAgents].entries()) {
      const { client, worker } = honest[i]!;
      await vote(ids[i]!, panel);
      await eventually(
        () => view(client, ids[i]!),
        (v) => v.status === 'resolved',
      );
      for (const who of [worker, client]) {
        const waived = await call(h().app, who, 'POST', `/contracts/${ids[i]}/appeals`, {
          body: { waive: true },
        });
        assert.equal(waived.status, 200, waived.text);
      }
      const final = await eventually(
        () => view(client, ids[i]!),
        (v) => v.status === 'settled-fully-met',
      );
      assert.equal(final.payment, PRICE.toString());
      assert.deepEqual(await usdc(h(), client), [FUNDS - PRICE - PANEL_FEE, 0n]);
      assert.deepEqual(await usdc(h(), worker), [FUNDS + PRICE, 0n]);
    }

    // What the attack cost, from the ledger: the fee of every seat it pinned (the escrow of 1 went to
    // its own Worker key, the floor stakes came back); the seated BAs who voted were paid it.
    for (const id of junk) assert.equal((await view(attackerClient, id)).status, 'settled-fully-met');
    const [ac, aw] = [await usdc(h(), attackerClient), await usdc(h(), attackerWorker)];
    assert.deepEqual([ac[1], aw[1]], [0n, 0n]);
    const spent = attackerFunds - ac[0] - aw[0];
    const seatsPinned = BigInt(JUNK * 3);
    assert.ok(spent >= seatsPinned * FEE_SHARE, `spent ${spent} for ${seatsPinned} seats`);
    assert.equal(spent, seatsPinned * FEE_SHARE);
    for (const ba of bas)
      assert.deepEqual(await usdc(h(), ba), [
        BA_FUNDS - ELIGIBILITY_STAKE + 4n * FEE_SHARE,
        ELIGIBILITY_STAKE,
      ]);
    assert.deepEqual(await usdc(h(), attackerWorker), [BigInt(JUNK) * (MIN_WORKER_STAKE + 1n), 0n]);
    await h().ledger.audit();

    const pinnedMs = await Promise.all(
      junk.map(
        async (id) =>
          (await firstAt(attackerClient, id, 'contract.settled')) -
          (await firstAt(attackerClient, id, 'contract.panel-drawn')),
      ),
    );
    const seatMs = pinnedMs.reduce((s, ms) => s + 3 * ms, 0);
    console.log(
      `seat exhaustion: ${seatsPinned} seats pinned for ${seatMs} seat-ms at a cost of ${spent} ` +
        `(${spent / seatsPinned} a seat); honest contracts seated ${delays.join(' and ')} ms after the seats freed`,
    );
  });
});
