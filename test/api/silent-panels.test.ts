// Silence decides nothing, through the API (docs/protocol.md §8): a disputed escrow whose panels never
// vote, and an appeal whose panel never votes against a decisive first panel, are never paid in full
// nor overturned. Each silent round is void (its members' seat bonds slashed, never drawn again), a new
// panel is drawn without them, and once nobody is left and the recruitment window has passed the
// operator decides as trusted arbiter, with the silent rounds' fee returned. Every status the contract
// passes through is read while it waits; exact balances after. Dev server (real time, short windows),
// worker and SQLite ledger.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OPERATOR_TOKEN, useAppHarness } from '../support/service';
import { call, eligibleAgents, type Json } from './support';
import { eventually } from '../support/eventually';
import {
  BA_BOND,
  BA_FUNDS,
  contractBody,
  DELIVERY_REF,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  newAgent,
  PANEL_FEE,
  PRICE,
  WORKER_STAKE,
  type TestAgent,
} from '../support/fixtures';
import { usdc } from '../support/balances';

const VOTING_WINDOW_MS = 6_000;
/** Longer than two voting windows: a void round is redrawn once before the arbiter is due. */
const RECRUITMENT_WINDOW_MS = 15_000;
const h = useAppHarness({
  params: {
    baVotingWindow: VOTING_WINDOW_MS,
    baRecruitmentWindow: RECRUITMENT_WINDOW_MS,
    appealWindow: 60_000,
  },
});

const view = async (who: TestAgent, id: string): Promise<Json> => {
  const res = await call(h().app, who, 'GET', `/contracts/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.json;
};
const eventsOf = async (who: TestAgent, id: string): Promise<Json[]> =>
  (await call(h().app, who, 'GET', `/contracts/${id}/events`)).json.events;

/** Reads the contract until the operator is asked to decide, noting every status and payment seen. */
async function watchUntilArbiter(who: TestAgent, id: string) {
  const seen = new Set<string>();
  const v = await eventually(
    async () => {
      const current = await view(who, id);
      seen.add(`${current.status} payment=${current.payment}`);
      return current;
    },
    (current) => current.awaitingArbiter === true || current.status.startsWith('settled-'),
    RECRUITMENT_WINDOW_MS + 30_000,
  );
  return { seen: [...seen], v };
}

const decide = (id: string, verdicts: string[]) =>
  call(h().app, undefined, 'POST', `/operator/contracts/${id}/verdicts`, {
    body: { verdicts },
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
  });

/** A direct contract in `mode`, accepted and delivered. */
async function delivered(mode: 'standard' | 'privacy-preserving') {
  const [client, worker] = [newAgent(), newAgent()];
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const created = await call(h().app, client, 'POST', '/contracts', {
    body: contractBody(worker.address, { verificationMode: mode }),
  });
  assert.equal(created.status, 201, created.text);
  const id: string = created.json.contractId;
  assert.equal((await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} })).status, 200);
  const sent = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, { body: DELIVERY_REF });
  assert.equal(sent.status, 200, sent.text);
  return { id, client, worker };
}

/** Every agent of the test leaves the registry, so the next test's registry is its own. */
async function unlockAll(agents: readonly TestAgent[]) {
  for (const a of agents) await call(h().app, a, 'POST', '/eligibility/unlock', { body: {} });
}

const untouched: [bigint, bigint] = [BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE];
/** A silent member of a void round: its seat's slices (the whole bond) to the Treasury. */
const slashedSilent: [bigint, bigint] = [BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE - BA_BOND];

describe('silent panels', () => {
  test('a disputed escrow whose panels never vote: never paid; void, redrawn without the silent, then the arbiter; bond and fee back', async () => {
    const registry = await eligibleAgents(h(), 6);
    const { id, client, worker } = await delivered('privacy-preserving');
    const disputed = await call(h().app, client, 'POST', `/contracts/${id}/disputes`, { body: {} });
    assert.equal(disputed.status, 200, disputed.text);
    assert.equal(disputed.json.backupAgents.length, 3);
    const DISPUTE_BOND = PRICE / 20n;
    assert.deepEqual(await usdc(h(), client), [
      FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE,
      PRICE + DISPUTE_BOND + PANEL_FEE,
    ]);

    const { seen, v } = await watchUntilArbiter(client, id);
    assert.equal(v.awaitingArbiter, true, JSON.stringify(v));
    assert.deepEqual(seen, ['disputed payment=null'], 'silence paid or settled nothing');
    // Still everything held: escrow, Dispute Bond and the fee.
    assert.deepEqual((await usdc(h(), client))[1], PRICE + DISPUTE_BOND + PANEL_FEE);
    const log = await eventsOf(client, id);
    const drawn = log.filter((e) => e.type === 'contract.panel-drawn').map((e) => e.panel as string[]);
    const voided = log.filter((e) => e.type === 'contract.panel-voided');
    assert.equal(drawn.length, 2, 'a void round is redrawn');
    assert.equal(voided.length, 2);
    assert.ok(
      drawn[1]!.every((a) => !drawn[0]!.includes(a)),
      'the silent are never drawn again',
    );
    const silent = new Set(voided.flatMap((e) => e.silent as string[]));
    assert.equal(silent.size, 6);

    // The operator's verdict settles it; the silent rounds' fee and the Dispute Bond go back.
    const decided = await decide(id, ['met', 'not met']);
    assert.equal(decided.status, 200, decided.text);
    assert.equal(decided.json.status, 'settled-partially-met');
    const payment = PRICE / 2n;
    assert.deepEqual(await usdc(h(), client), [FUNDS - payment, 0n]);
    assert.deepEqual(await usdc(h(), worker), [FUNDS + payment, 0n]);
    for (const ba of registry) assert.deepEqual(await usdc(h(), ba), slashedSilent);
    await h().ledger.audit();
    await unlockAll(registry);
  });

  test('a silent appeal panel never overturns a decisive first panel: void, then the arbiter; the appeal fee back', async () => {
    const registry = await eligibleAgents(h(), 8);
    const byAddress = new Map(registry.map((a) => [a.address, a]));
    const { id, client, worker } = await delivered('standard');
    const first: string[] = (
      await eventually(
        () => view(client, id),
        (x) => x.backupAgents.length === 3 && x.panelPending === false,
      )
    ).backupAgents;
    for (const a of first) {
      const voted = await call(h().app, byAddress.get(a)!, 'POST', `/contracts/${id}/votes`, {
        body: { votes: ['not met', 'not met'] },
      });
      assert.equal(voted.status, 200, voted.text);
    }
    const resolved = await eventually(
      () => view(client, id),
      (x) => x.status === 'resolved',
    );
    assert.deepEqual(resolved.criteriaMet, ['not met', 'not met']);

    const appealed = await call(h().app, worker, 'POST', `/contracts/${id}/appeals`, { body: {} });
    assert.equal(appealed.status, 200, appealed.text);
    assert.equal(appealed.json.status, 'disputed');
    const appealPanel = (appealed.json.backupAgents as string[]).filter((a) => !first.includes(a));
    assert.equal(appealPanel.length, 5);

    const { seen, v } = await watchUntilArbiter(client, id);
    assert.equal(v.awaitingArbiter, true, JSON.stringify(v));
    assert.deepEqual(seen, ['disputed payment=null'], 'silence overturned nothing');
    const voided = (await eventsOf(client, id)).filter((e) => e.type === 'contract.panel-voided');
    assert.equal(voided.length, 1);
    assert.deepEqual([...voided[0].silent].sort(), [...appealPanel].sort());

    const decided = await decide(id, ['not met', 'not met']);
    assert.equal(decided.status, 200, decided.text);
    assert.equal(decided.json.status, 'settled-none-met');
    const toClient = (WORKER_STAKE * 8000n) / 10000n;
    const appealBond = PRICE / 10n;
    // The first panel served and is paid its fee; the Client's escrow back with its share of the stake.
    assert.deepEqual(await usdc(h(), client), [FUNDS + toClient - PANEL_FEE, 0n]);
    // The appeal changed nothing: its bond to the Treasury, its fee back (no appeal panel decided).
    assert.deepEqual(await usdc(h(), worker), [FUNDS - WORKER_STAKE - appealBond, 0n]);
    for (const a of registry)
      assert.deepEqual(
        await usdc(h(), a),
        first.includes(a.address)
          ? [BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE]
          : appealPanel.includes(a.address)
            ? slashedSilent
            : untouched,
      );
    await h().ledger.audit();
    await unlockAll(registry);
  });
});
