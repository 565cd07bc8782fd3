import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextAction, type NextActionView } from '../../workflows/rules/next-action';
import type { ContractEvent } from '../../workflows/rules/events';
import { BA1, BA2, CLIENT, OTHER, WORKER } from '../support/fixtures';

const iso = (ms: number) => new Date(ms).toISOString();
const deadlines = { match: iso(100), withdrawal: iso(200), delivery: iso(300), review: iso(400) };
const view = (over: Partial<NextActionView> = {}): NextActionView => ({
  status: 'created',
  awardMethod: 'direct',
  verificationMode: 'privacy-preserving',
  client: CLIENT,
  worker: WORKER,
  backupAgents: [],
  deadlines,
  voting: null,
  ...over,
});
const at = (
  v: NextActionView,
  agent: string,
  now = 50,
  ballotsCast: string[] = [],
  events: ContractEvent[] = [],
) => nextAction({ view: v, events, ballotsCast, agent, now });

describe('nextAction', () => {
  test('a direct award: the named Worker accepts before the match deadline; nobody else has anything to do', () => {
    assert.deepEqual(at(view(), WORKER), { action: 'accept', deadline: deadlines.match });
    assert.equal(at(view(), WORKER, 100), null);
    assert.equal(at(view(), CLIENT), null);
    assert.equal(at(view({ awardMethod: 'open', worker: null }), OTHER), null);
  });

  test('matched: the Worker delivers; under review (privacy-preserving): the Client reviews', () => {
    assert.deepEqual(at(view({ status: 'matched' }), WORKER), {
      action: 'deliver',
      deadline: deadlines.delivery,
    });
    assert.deepEqual(at(view({ status: 'under-review' }), CLIENT), {
      action: 'review',
      deadline: deadlines.review,
    });
    assert.equal(at(view({ status: 'under-review', verificationMode: 'standard' }), CLIENT), null);
    assert.equal(at(view({ status: 'under-review' }), WORKER), null);
  });

  test('a seated Backup Agent votes until the tally or the window’s end; once its ballot is in it has none', () => {
    const voting = view({
      status: 'disputed',
      backupAgents: [BA1, BA2],
      voting: { drawnAt: iso(0), endsAt: iso(500), tallied: false },
    });
    assert.deepEqual(at(voting, BA1), { action: 'vote', deadline: iso(500) });
    assert.equal(at(voting, BA1, 500), null);
    assert.equal(at({ ...voting, voting: { drawnAt: iso(0), endsAt: iso(500), tallied: true } }, BA1), null);
    // BA1's ballot is in (sealed: the log shows nothing of it); BA2 still votes.
    assert.equal(at(voting, BA1, 50, [BA1]), null);
    assert.deepEqual(at(voting, BA2, 50, [BA1]), { action: 'vote', deadline: iso(500) });
    assert.equal(at(voting, BA2, 50, [BA1, BA2]), null);
    // The ballots cast tell no one else anything: not a stranger, not the parties.
    assert.equal(at(voting, OTHER, 50, [OTHER]), null);
    const review = view({ status: 'under-review', backupAgents: [BA1], voting: voting.voting });
    assert.deepEqual(at(review, CLIENT, 50, [BA1]), at(review, CLIENT, 50, []));
  });

  test('an appeal panel: a Backup Agent seated again votes again, whatever the first panel’s tally revealed', () => {
    // After the first tally the log holds each first-panel ballot (agent.verified); the ballots cast are the
    // appeal panel's own, so a BA on both panels is asked for its second vote.
    const appealPanel = view({
      status: 'disputed',
      backupAgents: [BA1, BA2],
      voting: { drawnAt: iso(600), endsAt: iso(900), tallied: false },
    });
    const firstTally = [
      {
        type: 'agent.verified',
        contractId: 'c',
        at: iso(550),
        actor: BA1,
        agentId: BA1,
        target: 'x',
        verdict: 'pass',
        criteria: [],
        role: 'backup-agent',
      } as ContractEvent,
    ];
    assert.deepEqual(at(appealPanel, BA1, 650, [], firstTally), { action: 'vote', deadline: iso(900) });
    assert.equal(at(appealPanel, BA1, 650, [BA1], firstTally), null);
  });

  test('a pending panel stops every action; an appeal window asks who may appeal', () => {
    assert.equal(at(view({ status: 'matched', panelPending: true }), WORKER), null);
    const appeal = view({ status: 'resolved', appeal: { endsAt: iso(600), mayAppeal: [CLIENT] } });
    assert.deepEqual(at(appeal, CLIENT), { action: 'appeal', deadline: iso(600) });
    assert.equal(at(appeal, WORKER), null);
  });
});
