// End to end on the dev server, through the SDK over HTTP: owners grant delegate keys mandates, and the
// delegates act for them (createAgentClient({ onBehalfOf })). A delegate creates, accepts, delivers,
// approves and disputes on its owner's balance, recorded as the actor of each message; each limit refuses
// at its edge with 403 and nothing held; a revoked or expired mandate refuses the next message while the
// owner goes on acting in the contracts its delegate opened; the routes a mandate never reaches refuse.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAgentClient, randomPrivateKey } from '../../sdk/typescript';
import type { MandateRequest } from '../../sdk/typescript/types';
import { useServiceHarness } from '../support/service';
import { usdc } from '../support/balances';
import { eventually } from '../support/eventually';
import { DISPUTE_BOND, FUNDS, PANEL_FEE, PRICE, WORKER_STAKE } from '../support/fixtures';
import { agent, DELIVERY, expectApiError, fixedTerms, fund } from './support';

const h = useServiceHarness();
const HOUR = 3600_000;

type Agent = ReturnType<typeof agent>;

function limits(
  perContract: bigint,
  total: bigint,
  perDay: bigint,
  more: Partial<MandateRequest['limits']> = {},
) {
  return { perContract: perContract.toString(), total: total.toString(), perDay: perDay.toString(), ...more };
}

/** A new key acting for `owner` under a mandate the owner grants it now. */
async function delegateOf(owner: Agent, l: MandateRequest['limits'], expiresInMs = HOUR) {
  const key = randomPrivateKey();
  const delegate = createAgentClient({ baseUrl: h().url(), privateKey: key, onBehalfOf: owner.address });
  const mandate = await owner.grantMandate({
    delegate: delegate.signer,
    limits: l,
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  });
  assert.equal(mandate.state, 'live');
  return { delegate, mandate, key };
}

/** What a dispute commits: its Dispute Bond and the panel fee it brings, both held from the owner. */
const DISPUTE_COST = DISPUTE_BOND + PANEL_FEE;

describe('mandates: delegate keys acting for their owners, end to end', () => {
  test('a delegate creates, accepts, approves and disputes within its mandate, on its owner’s balance', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    const perContract = PRICE + DISPUTE_COST;
    const { delegate: forClient, mandate } = await delegateOf(
      client,
      limits(perContract, 2n * perContract, 2n * perContract, { roles: ['client'] }),
    );
    const { delegate: forWorker } = await delegateOf(
      worker,
      limits(WORKER_STAKE, WORKER_STAKE * 2n, FUNDS, { roles: ['worker'] }),
    );

    const created = await forClient.createContract(fixedTerms(worker.address));
    assert.equal(created.client, client.address, 'the owner is the party of record');
    assert.deepEqual(await usdc(h(), client.address), [FUNDS - PRICE, PRICE]);
    assert.deepEqual(await usdc(h(), forClient.signer), [0n, 0n], 'the delegate holds nothing');
    await forWorker.accept(created.contractId);
    assert.deepEqual(await usdc(h(), worker.address), [FUNDS - WORKER_STAKE, WORKER_STAKE]);
    await forWorker.deliver(created.contractId, DELIVERY);
    await forClient.approve(created.contractId);
    await eventually(
      () => client.getContract(created.contractId),
      (v) => v.status === 'settled-fully-met',
    );
    assert.deepEqual(await usdc(h(), client.address), [FUNDS - PRICE, 0n]);
    assert.deepEqual(await usdc(h(), worker.address), [FUNDS + PRICE, 0n]);

    // The events name the owner as the actor of record and the delegate as the key that acted.
    const { events } = await client.getEvents(created.contractId);
    const createdEvent = events.find((e) => e.type === 'contract.created')!;
    assert.equal(createdEvent.actor, client.address);
    assert.equal(createdEvent.delegate, forClient.signer);
    assert.equal(events.find((e) => e.type === 'contract.matched')!.delegate, forWorker.signer);
    // The owner's feed shows the actions taken under its mandate.
    await eventually(
      () => client.myFeed(),
      (page) =>
        page.entries.some(
          (e) => (e.event as { delegate?: string } | undefined)?.delegate === forClient.signer,
        ),
    );

    // A second contract: the delegate disputes, and the Dispute Bond is held from the owner.
    const second = await forClient.createContract(fixedTerms(worker.address));
    await forWorker.accept(second.contractId);
    await forWorker.deliver(second.contractId, DELIVERY);
    const disputed = await forClient.dispute(second.contractId);
    assert.equal(disputed.status, 'disputed');
    assert.deepEqual(await usdc(h(), client.address), [
      FUNDS - 2n * PRICE - DISPUTE_COST,
      PRICE + DISPUTE_COST,
    ]);
    const [standing] = await client.listMandates();
    assert.equal(standing!.id, mandate.id);
    assert.equal(standing!.committed, (PRICE + DISPUTE_COST).toString());
    assert.equal(standing!.committedLastDay, (2n * PRICE + DISPUTE_COST).toString());
    assert.equal(standing!.left, (2n * perContract - (2n * PRICE + DISPUTE_COST)).toString());
    // The delegate reads what it has left; it never grants itself more.
    assert.equal((await forClient.listMandates())[0]!.id, mandate.id);
  });

  test('each limit refuses at its edge with 403, nothing held', async () => {
    const owner = agent(h());
    const other = agent(h());
    await fund(h(), owner.address);
    await fund(h(), other.address);
    const held = async () => (await usdc(h(), owner.address))[1];

    const { delegate: tight } = await delegateOf(owner, limits(PRICE - 1n, FUNDS, FUNDS));
    await expectApiError(tight.createContract(fixedTerms(other.address)), 403, 'mandate_exceeded');
    assert.equal(await held(), 0n, 'perContract: nothing held');

    const { delegate: total } = await delegateOf(owner, limits(PRICE, PRICE, FUNDS));
    const first = await total.createContract(fixedTerms(other.address));
    await expectApiError(total.createContract(fixedTerms(other.address)), 403, 'mandate_exceeded');
    assert.equal(await held(), PRICE, 'total: only the first escrow held');

    // A cancellation frees total, never perDay.
    const { delegate: daily } = await delegateOf(owner, limits(PRICE, FUNDS, PRICE));
    const once = await daily.createContract(fixedTerms(other.address));
    await daily.cancel(once.contractId);
    await eventually(
      () => usdc(h(), owner.address),
      ([, h]) => h === PRICE,
    );
    await expectApiError(daily.createContract(fixedTerms(other.address)), 403, 'mandate_exceeded');
    assert.equal(await held(), PRICE);

    const { delegate: workerOnly } = await delegateOf(
      owner,
      limits(PRICE, FUNDS, FUNDS, { roles: ['worker'] }),
    );
    await expectApiError(workerOnly.createContract(fixedTerms(other.address)), 403, 'mandate_role');
    const { delegate: onlyOther } = await delegateOf(
      owner,
      limits(PRICE, FUNDS, FUNDS, { counterparties: [other.address] }),
    );
    await expectApiError(onlyOther.createContract(fixedTerms()), 403, 'mandate_counterparty');
    await expectApiError(
      onlyOther.createContract(fixedTerms(agent(h()).address)),
      403,
      'mandate_counterparty',
    );
    assert.equal(await held(), PRICE);
    await owner.cancel(first.contractId);
  });

  test('revocation and expiry refuse the next message; the owner goes on in the contracts its delegate opened', async () => {
    const owner = agent(h());
    const worker = agent(h());
    const stranger = agent(h());
    await fund(h(), owner.address);
    await fund(h(), worker.address);
    const { delegate, mandate } = await delegateOf(owner, limits(PRICE, FUNDS, FUNDS));
    const opened = await delegate.createContract(fixedTerms(worker.address));

    // Routes a mandate never reaches, and a stranger naming an owner it holds no mandate from.
    await expectApiError(
      delegate.withdrawFunds({ amount: '1', destination: 'bank:x' }, { idempotencyKey: 'w-1' }),
      403,
      'mandate_not_allowed',
    );
    await expectApiError(delegate.lockEligibility('1'), 403, 'mandate_not_allowed');
    await expectApiError(
      delegate.grantMandate({
        delegate: stranger.address,
        limits: limits(1n, 1n, 1n),
        expiresAt: new Date(Date.now() + HOUR).toISOString(),
      }),
      403,
      'mandate_not_allowed',
    );
    const impostor = createAgentClient({
      baseUrl: h().url(),
      privateKey: randomPrivateKey(),
      onBehalfOf: owner.address,
    });
    await expectApiError(impostor.createContract(fixedTerms(worker.address)), 403, 'mandate_missing');

    const revoked = await owner.revokeMandate(mandate.id);
    assert.equal(revoked.state, 'revoked');
    await expectApiError(delegate.cancel(opened.contractId), 403, 'mandate_revoked');
    await expectApiError(delegate.createContract(fixedTerms(worker.address)), 403, 'mandate_revoked');
    assert.deepEqual(await usdc(h(), owner.address), [FUNDS - PRICE, PRICE]);
    // The contract goes on: the Worker accepts and the owner approves.
    await worker.accept(opened.contractId);
    await worker.deliver(opened.contractId, DELIVERY);
    await owner.approve(opened.contractId);
    await eventually(
      () => owner.getContract(opened.contractId),
      (v) => v.status === 'settled-fully-met',
    );

    const { delegate: brief } = await delegateOf(owner, limits(PRICE, FUNDS, FUNDS), 1500);
    await new Promise((r) => setTimeout(r, 2000));
    await expectApiError(brief.createContract(fixedTerms(worker.address)), 403, 'mandate_expired');
    assert.deepEqual(await usdc(h(), owner.address), [FUNDS - PRICE, 0n]);
  });
});
