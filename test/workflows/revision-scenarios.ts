// Change-request paths of a privacy-preserving contract (docs/protocol.md §7 "Request changes"), driven
// the way the API drives them. test/workflows/revisions.test.ts asserts their outcomes;
// test/histories/record.ts saves each one's history for the replay test.
import assert from 'node:assert/strict';
import {
  acceptUpdate,
  approveUpdate,
  deliverUpdate,
  FailureType,
  requestChangesUpdate,
} from '../../workflows/definitions';
import { assertRefused, delivery, type Harness } from './harness';
import { CLIENT, HOUR, SHA_A, WORKER } from '../support/fixtures';
import { finish, send, started, type Path } from './scenarios';

/** A second delivery: another reference and content than `delivery`'s. */
export const redelivery = (caller: string) => ({
  caller,
  uri: 'https://store.example/d/2',
  sha256: 'c'.repeat(64),
  contentHash: SHA_A,
});

export const REVISION_PATHS = {
  /**
   * FDP: delivered; the Client asks for changes twice (the Worker redelivers after each), a third request
   * is refused (`revisions_exhausted`), and the Client approves: paid in full.
   */
  async 'revised-redelivered-approved'(h: Harness) {
    const { input, handle } = await started(h);
    await send(handle, acceptUpdate, { caller: WORKER });
    await send(handle, deliverUpdate, delivery(WORKER));
    const first = await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [1], note: 'fix c2' });
    assert.equal(first.status, 'matched');
    assert.equal(first.revisionCount, 1);
    assert.equal((await send(handle, deliverUpdate, redelivery(WORKER))).status, 'under-review');
    await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0, 1] });
    const again = await send(handle, deliverUpdate, delivery(WORKER));
    assert.equal(again.status, 'under-review');
    assert.equal(again.delivery?.round, 2);
    await assertRefused(
      send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] }),
      FailureType.Conflict,
      'revisions_exhausted',
    );
    assert.equal((await send(handle, approveUpdate, { caller: CLIENT })).status, 'settled-fully-met');
    return finish(input.contractId, handle);
  },

  /**
   * FDP: delivered; the Client asks for changes; the Worker does not deliver again. At the moved Delivery
   * Deadline its delivery stands (`under-review`, never absent); at the moved Review Deadline it is approved.
   */
  async 'revised-delivery-stands'(h: Harness) {
    const { input, handle } = await started(h);
    await send(handle, acceptUpdate, { caller: WORKER });
    await send(handle, deliverUpdate, delivery(WORKER));
    const revised = await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] });
    const deliveryDeadline = Date.parse(revised.deadlines.delivery);
    await h.sleep(deliveryDeadline - (await h.now()) + HOUR / 2);
    const standing = await h.view(handle);
    assert.equal(standing.status, 'under-review');
    assert.equal(standing.delivery?.round, 0);
    return finish(input.contractId, handle);
  },
} satisfies Record<string, Path>;
