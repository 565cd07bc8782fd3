// What an agent is expected to do next on a contract, and by when: a pure function of the contract's
// view, its event log, the ballots cast so far and the clock. The agent listing (GET /agents/:address/contracts) and the feed's
// reminders read it. Each case is one rule below; a new kind of step (an appeal, a pending panel) is
// one more rule, tried in order, the first that answers wins.
import type { ContractView } from '../definitions';
import type { ContractEvent } from './events';
import { isBeforeDeadline } from './deadlines';

export type AgentRole = 'client' | 'worker' | 'bidder' | 'backup-agent';

export type NextActionKind = 'accept' | 'deliver' | 'review' | 'vote' | 'appeal';

export interface NextAction {
  action: NextActionKind;
  /** ISO-8601 UTC: the action is possible strictly before it. */
  deadline: string;
}

/**
 * The view's fields the rules read. `panelPending` and `appeal` are optional: a contract whose view
 * carries them (a panel waiting for eligible agents, an appeal window) is judged by them.
 */
export type NextActionView = Pick<
  ContractView,
  | 'status'
  | 'awardMethod'
  | 'verificationMode'
  | 'client'
  | 'worker'
  | 'backupAgents'
  | 'deadlines'
  | 'voting'
> & {
  panelPending?: boolean;
  appeal?: { endsAt: string; mayAppeal: readonly string[] } | null;
};

export interface NextActionInput {
  view: NextActionView;
  events: readonly ContractEvent[];
  /**
   * The seated Backup Agents whose ballot is in (the workflow's `ballotsCast`). Votes are sealed until the
   * tally, so the log cannot say it; only the service reads it, and tells each agent no more than its own
   * next action.
   */
  ballotsCast: readonly string[];
  agent: string;
  now: number;
}

/** Whether a panel is voting now: only then do the ballots cast matter to anyone's next action. */
export function panelVoting(view: Pick<NextActionView, 'voting'>): boolean {
  return view.voting !== null && !view.voting.tallied;
}

/** Whether `agent` sits on the panel voting now: only then do the ballots cast matter to its next action. */
export function seatedWhileVoting(
  view: Pick<NextActionView, 'voting' | 'backupAgents'>,
  agent: string,
): boolean {
  return panelVoting(view) && (view.backupAgents as readonly string[]).includes(agent);
}

type Rule = (input: NextActionInput) => NextAction | null | undefined;

function open(now: number, deadline: string | null | undefined, action: NextActionKind): NextAction | null {
  if (deadline === null || deadline === undefined) return null;
  return isBeforeDeadline(now, Date.parse(deadline)) ? { action, deadline } : null;
}

/** Ordered: `null` stops with no action, `undefined` lets the next rule decide. */
const RULES: readonly Rule[] = [
  // A panel waiting to be seated: nobody can act until it is.
  ({ view }) => (view.panelPending === true ? null : undefined),
  // The Client or the Worker may appeal a tally within its window.
  ({ view, agent, now }) =>
    view.appeal && view.appeal.mayAppeal.includes(agent)
      ? open(now, view.appeal.endsAt, 'appeal')
      : undefined,
  // A direct award names its Worker: it accepts (or declines) before the match deadline.
  ({ view, agent, now }) =>
    view.status === 'created' && view.awardMethod === 'direct' && view.worker === agent
      ? open(now, view.deadlines.match, 'accept')
      : undefined,
  ({ view, agent, now }) =>
    view.status === 'matched' && view.worker === agent
      ? open(now, view.deadlines.delivery, 'deliver')
      : undefined,
  // Privacy-preserving: the Client approves or disputes the delivery before the review deadline.
  ({ view, agent, now }) =>
    view.status === 'under-review' && view.verificationMode === 'privacy-preserving' && view.client === agent
      ? open(now, view.deadlines.review, 'review')
      : undefined,
  // A seated Backup Agent votes once, before the voting window ends.
  ({ view, ballotsCast, agent, now }) =>
    view.voting !== null && seatedWhileVoting(view, agent) && !ballotsCast.includes(agent)
      ? open(now, view.voting.endsAt, 'vote')
      : undefined,
];

/** The agent's next action on this contract, or null when it has nothing to do now. */
export function nextAction(input: NextActionInput): NextAction | null {
  for (const rule of RULES) {
    const answer = rule(input);
    if (answer !== undefined) return answer;
  }
  return null;
}
