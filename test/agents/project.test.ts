// The feed's projection of a contract log (pure): who gets which event, in which form.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { projectContract } from '../../store/agent-feed/project';
import type { ContractView } from '../../workflows/definitions';
import type { ContractEvent } from '../../workflows/rules/events';
import { BA1, CLIENT, OTHER, STRANGER, WORKER } from '../support/fixtures';

const T = Date.parse('2030-01-01T00:00:00Z');
const iso = (ms: number) => new Date(T + ms).toISOString();
const base = (type: string, actor: string, ms: number) => ({ type, contractId: 'c-1', at: iso(ms), actor });
const LOG = [
  {
    ...base('contract.created', CLIENT, 0),
    contractCode: 'AOP',
    deadlines: { match: iso(100), withdrawal: iso(200), delivery: iso(300) },
  },
  { ...base('contract.quote-received', OTHER, 1), quoteId: 'q1' },
  { ...base('contract.quote-received', WORKER, 2), quoteId: 'q2' },
  { ...base('contract.message-rejected', STRANGER, 3), message: 'accept', code: 'wrong_state' },
  {
    ...base('contract.matched', CLIENT, 4),
    worker: WORKER,
    via: 'owner-pick',
    quoteId: 'q2',
    price: '1',
    workerStake: '0',
  },
  { ...base('contract.delivered', WORKER, 5), deliverySha256: 'a', contentSha256: 'b', evidenceCriteria: [] },
  { ...base('contract.panel-drawn', 'system', 6), panel: [BA1], votingDeadline: iso(500) },
] as unknown as ContractEvent[];
const VIEW = {
  contractId: 'c-1',
  status: 'disputed',
  awardMethod: 'open',
  verificationMode: 'privacy-preserving',
  client: CLIENT,
  worker: WORKER,
  backupAgents: [BA1],
  deadlines: { match: iso(100), withdrawal: iso(200), delivery: iso(300), review: iso(400) },
  voting: { drawnAt: iso(6), endsAt: iso(500), tallied: false },
  nextDeadline: { kind: 'voting', at: iso(500) },
} as unknown as ContractView;

const project = (from = 0, now = T + 10, ballotsCast: string[] = []) =>
  projectContract({ view: VIEW, events: LOG, ballotsCast, from, now, reminderLeadMs: 1000 });
const of = (agent: string, from = 0) =>
  project(from)
    .entries.filter((e) => e.agent === agent)
    .map((e) => [e.type, e.event?.type ?? null]);

describe('projectContract', () => {
  test('the Client gets every event, the Worker from its quote on, the drawn Backup Agent from its draw, with agent.drawn', () => {
    assert.equal(of(CLIENT).length, LOG.length);
    assert.deepEqual(of(BA1), [
      ['contract.event', 'contract.panel-drawn'],
      ['agent.drawn', null],
      ['agent.reminder', null],
    ]);
    assert.deepEqual(of(WORKER)[0], ['contract.event', 'contract.quote-received']);
  });

  test('a losing bidder gets its own quote and the match, in the public form (no address), nothing else', () => {
    const entries = project().entries.filter((e) => e.agent === OTHER);
    assert.deepEqual(
      entries.map((e) => e.event?.type),
      ['contract.quote-received', 'contract.matched'],
    );
    assert.ok(!JSON.stringify(entries).includes(WORKER), 'the winner is not named to a losing bidder');
    assert.ok(!JSON.stringify(entries).includes(CLIENT));
  });

  test('a stranger whose message was refused gets nothing', () => {
    assert.deepEqual(of(STRANGER), []);
  });

  test('from a later position only the new events; the dedup keys of a repeat are the same', () => {
    assert.deepEqual(of(CLIENT, 6), [['contract.event', 'contract.panel-drawn']]);
    assert.deepEqual(
      project().entries.map((e) => e.dedup),
      project().entries.map((e) => e.dedup),
    );
  });

  test('a Backup Agent whose ballot is in gets no vote reminder, and nobody is told who voted', () => {
    const projection = project(LOG.length, T + 10, [BA1]);
    assert.deepEqual(projection.entries, []);
    // Its deadline no longer wakes the projector for a reminder (the voting deadline itself still does).
    assert.equal(projection.dueAt, T + 500);
    assert.deepEqual(
      project(LOG.length).entries.map((e) => [e.agent, e.type, e.nextAction?.action]),
      [[BA1, 'agent.reminder', 'vote']],
    );
  });

  test('the reminder falls due within the lead: before it, only the due time', () => {
    const early = projectContract({
      view: VIEW,
      events: LOG,
      ballotsCast: [],
      from: LOG.length,
      now: T,
      reminderLeadMs: 100,
    });
    assert.deepEqual(early.entries, []);
    assert.equal(early.dueAt, T + 400);
  });
});
