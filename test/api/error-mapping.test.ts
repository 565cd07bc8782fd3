// How the API answers an Update the Temporal server itself failed (not a refusal of the contract's): the
// caller gets a status that says what to do, never a 500; one no worker processed is sent again first.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { mapError } from '../../api/errors/mapping';
import { isUnprocessedUpdate, sendUntilProcessed } from '../../api/errors/unprocessed-update';

const failedUpdate = (type: string, message = 'from the server') =>
  new WorkflowUpdateFailedError(
    'Workflow Update failed',
    ApplicationFailure.create({ type, message, nonRetryable: true }),
  );

describe('an Update the server failed', () => {
  test('not processed by any worker: 503, retry', () => {
    const { status, body } = mapError(failedUpdate('UnprocessedUpdate'));
    assert.equal(status, 503);
    assert.equal(body.error.code, 'temporal_unavailable');
  });

  test('taken, and the contract closed before it finished: 409 wrong_state', () => {
    const { status, body } = mapError(failedUpdate('AcceptedUpdateCompletedWorkflow'));
    assert.equal(status, 409);
    assert.equal(body.error.code, 'wrong_state');
  });

  test("a refusal of the contract's keeps its own status; an unknown failure is still a 500", () => {
    assert.equal(mapError(failedUpdate('Conflict', 'already matched')).status, 409);
    assert.equal(mapError(failedUpdate('SomethingElse')).status, 500);
  });
});

describe('the gateway sends an Update again while it comes back unprocessed', () => {
  const sendsThat = (outcomes: Array<Error | string>) => {
    let sent = 0;
    const send = async () => {
      const outcome = outcomes[Math.min(sent++, outcomes.length - 1)]!;
      if (outcome instanceof Error) throw outcome;
      return outcome;
    };
    return { send, sent: () => sent };
  };

  test('unprocessed, then taken: the answer of the one taken', async () => {
    const s = sendsThat([failedUpdate('UnprocessedUpdate'), failedUpdate('UnprocessedUpdate'), 'matched']);
    assert.equal(await sendUntilProcessed(s.send), 'matched');
    assert.equal(s.sent(), 3);
  });

  test('unprocessed every time: the third failure is the answer', async () => {
    const s = sendsThat([failedUpdate('UnprocessedUpdate')]);
    await assert.rejects(sendUntilProcessed(s.send), (err) => isUnprocessedUpdate(err));
    assert.equal(s.sent(), 3);
  });

  test('a refusal is the answer at once', async () => {
    const s = sendsThat([failedUpdate('Conflict', 'already matched'), 'matched']);
    await assert.rejects(sendUntilProcessed(s.send), /Workflow Update failed/);
    assert.equal(s.sent(), 1);
  });
});
