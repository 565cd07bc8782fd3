// Change requests end to end on the dev server, through the SDK over HTTP (docs/protocol.md §7 "Request
// changes"): two honoured and a third refused, the Worker and a stranger refused, a redelivery approved
// and paid in full; a Worker that does not deliver again is never absent (its delivery stands, the
// review resumes); the Client's note reaches the parties' views and nothing a stranger reads.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useServiceHarness } from '../support/service';
import { agent, balancesOf, DELIVERY, expectApiError, fixedTerms, fund } from './support';
import { FUNDS, PRICE, SECOND, WORKER_STAKE } from '../support/fixtures';
import { eventually } from '../support/eventually';

// A short window, so a Worker that does not deliver again is seen to stand within the test.
const REVISION_WINDOW = 3 * SECOND;
const h = useServiceHarness({ params: { revisionWindow: REVISION_WINDOW } });

const NOTE = 'NOTE-9F2K: the summary skips section 3';
const REDELIVERY = {
  ...DELIVERY,
  uri: 'https://files.example/readme-fr-v2.enc',
  sha256: 'de'.repeat(32),
  key: 'k2',
};

/** Every string anywhere in a value, joined: what a scan for the note reads. */
const textOf = (value: unknown) => JSON.stringify(value);

describe('change requests, end to end', () => {
  test('two honoured, a third refused; Worker and stranger refused; the note stays with the parties; redelivered and approved: paid in full', async () => {
    const client = agent(h());
    const worker = agent(h());
    const stranger = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    await fund(h(), stranger.address);
    const id = (await client.createContract(fixedTerms(worker.address))).contractId;
    await worker.accept(id);
    await worker.deliver(id, DELIVERY);

    await expectApiError(worker.requestChanges(id, { criteria: [0] }), 403, 'not_client');
    await expectApiError(stranger.requestChanges(id, { criteria: [0] }), 403, 'not_client');
    await expectApiError(client.requestChanges(id, { criteria: [5] }), 400);

    const first = await client.requestChanges(id, { criteria: [1], note: NOTE });
    assert.equal(first.status, 'matched');
    assert.equal(first.revisionCount, 1);
    assert.ok(first.view === 'party');
    assert.equal(first.revisions[0]!.note, NOTE);
    // The Worker reads the note in its party view and is told to deliver again.
    const seenByWorker = await worker.getContract(id);
    assert.ok(seenByWorker.view === 'party');
    assert.deepEqual(
      seenByWorker.revisions.map((r) => [r.criteria, r.note]),
      [[[1], NOTE]],
    );
    // The Worker's listing follows the feed's projection of the change, a moment after the answer.
    const listed = await eventually(
      () => worker.myContracts(),
      (page) => page.contracts.some((c) => c.contractId === id && c.nextAction === 'deliver'),
    );
    const mine = listed.contracts.find((c) => c.contractId === id);
    assert.equal(mine?.nextAction, 'deliver');
    assert.equal(mine?.actionDeadline, first.deadlines.delivery);

    // What a stranger reads: the public view (with the count), the public events, its own feed.
    const publicView = await stranger.getContract(id);
    assert.equal(publicView.view, 'public');
    assert.equal(publicView.revisionCount, 1);
    const publicEvents = await stranger.getEvents(id);
    const revise = publicEvents.events.find((e) => e.type === 'agent.verified');
    assert.deepEqual(revise && [revise.verdict, revise.criteria, revise.agentId], [
      'revise',
      ['c2'],
      'client',
    ]);
    const strangerFeed = await stranger.myFeed();
    for (const [where, value] of Object.entries({ publicView, publicEvents, strangerFeed })) {
      assert.ok(!textOf(value).includes('NOTE-9F2K'), `the note leaked into the stranger's ${where}`);
    }
    // The parties' event log carries no note either (the event is content-free); the Worker's feed shows the request.
    assert.ok(!textOf(await client.getEvents(id)).includes('NOTE-9F2K'));
    const feed = await eventually(
      () => worker.myFeed(),
      (f) => f.entries.some((e) => e.event?.type === 'agent.verified' && e.event.verdict === 'revise'),
    );
    assert.ok(!textOf(feed).includes('NOTE-9F2K'));

    assert.equal((await worker.deliver(id, REDELIVERY)).status, 'under-review');
    assert.equal((await client.getDeliveryKey(id)).key, REDELIVERY.key);
    await client.requestChanges(id, { criteria: [0, 1] });
    // The same delivery as the first one, sent again: a redelivery, not a retry.
    const third = await worker.deliver(id, DELIVERY);
    assert.equal(third.status, 'under-review');
    assert.equal((await client.getDeliveryKey(id)).key, DELIVERY.key);
    await expectApiError(client.requestChanges(id, { criteria: [0] }), 409, 'revisions_exhausted');

    const approved = await client.approve(id);
    assert.equal(approved.status, 'settled-fully-met');
    assert.equal(approved.view === 'party' && approved.payment, PRICE.toString());
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(worker), [FUNDS + PRICE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(stranger), [FUNDS, 0n, 0n, 0n]);
  });

  test('a Worker that does not deliver again is never absent: its delivery stands, the review resumes, approved', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    const now = Date.now();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const id = (
      await client.createContract({
        ...fixedTerms(worker.address, now),
        deadlines: {
          match: at(5 * SECOND),
          withdrawal: at(5 * SECOND),
          delivery: at(6 * SECOND),
          review: at(600 * SECOND),
        },
      })
    ).contractId;
    await worker.accept(id);
    await worker.deliver(id, DELIVERY);
    const revised = await client.requestChanges(id, { criteria: [0], note: NOTE });
    assert.equal(revised.status, 'matched');
    assert.deepEqual(await balancesOf(worker), [FUNDS - WORKER_STAKE, WORKER_STAKE, 0n, 0n]);

    // Past the moved Delivery Deadline: under review again with the first delivery, not cancelled-absent.
    const standing = await eventually(
      () => client.getContract(id),
      (view) => view.status !== 'matched',
      30 * SECOND,
    );
    assert.equal(standing.status, 'under-review');
    assert.ok(standing.view === 'party');
    assert.equal(standing.delivery?.sha256, DELIVERY.sha256);
    assert.equal((await client.getDeliveryKey(id)).key, DELIVERY.key);
    const settled = await client.approve(id);
    assert.equal(settled.status, 'settled-fully-met');
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(worker), [FUNDS + PRICE, 0n, 0n, 0n]);
  });
});
