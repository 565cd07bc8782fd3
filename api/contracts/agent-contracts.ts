// GET /agents/:address/contracts: the contracts an agent takes part in (as the feed recorded them:
// Client, named or matched Worker, bidder, seated Backup Agent), newest first, each with its status
// now and what the agent is expected to do next (workflows/rules/next-action.ts), read from the
// contract read model (docs/records.md), open or closed alike.
import type { FeedStore } from '../../store/agent-feed';
import type { AgentContractRow } from '../../store/agent-feed/types';
import {
  nextAction,
  seatedWhileVoting,
  type AgentRole,
  type NextActionKind,
} from '../../workflows/rules/next-action';
import type { ContractGateway } from './gateway';
import { badRequest } from '../errors';

export interface AgentContract {
  contractId: string;
  /** The agent's main role here (client, worker, backup-agent, bidder, in that order); `roles` lists them all. */
  role: AgentRole;
  roles: AgentRole[];
  status: string;
  nextAction: NextActionKind | null;
  actionDeadline: string | null;
  /** With milestones: the milestone the next action is for (0-based); null without them. */
  milestone: number | null;
}

const ROLE_ORDER: readonly AgentRole[] = ['client', 'worker', 'backup-agent', 'bidder'];

export function encodeCursor(row: Pick<AgentContractRow, 'since' | 'contractId'>): string {
  return Buffer.from(JSON.stringify([row.since, row.contractId])).toString('base64url');
}

export function decodeCursor(cursor: string): { since: number; contractId: string } {
  try {
    const [since, contractId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof since === 'number' && Number.isSafeInteger(since) && typeof contractId === 'string')
      return { since, contractId };
  } catch {
    // answered below
  }
  throw badRequest('cursor must be a nextCursor this route answered', {
    fields: [{ field: 'cursor', message: 'is not a cursor of this listing' }],
  });
}

export async function agentContractsPage(
  deps: { store: FeedStore; contracts: ContractGateway; now: () => number },
  query: { agent: string; role?: AgentRole; open?: boolean; cursor?: string; limit: number },
): Promise<{ contracts: AgentContract[]; nextCursor: string | null }> {
  const rows = await deps.store.agentContracts({
    agent: query.agent,
    limit: query.limit,
    ...(query.role === undefined ? {} : { role: query.role }),
    ...(query.open === undefined ? {} : { open: query.open }),
    ...(query.cursor === undefined ? {} : { before: decodeCursor(query.cursor) }),
  });
  const contracts = await Promise.all(
    rows.map(async (row): Promise<AgentContract | undefined> => {
      const snapshot = await deps.contracts.snapshot(row.contractId);
      if (snapshot === undefined) return undefined;
      const { view, events } = snapshot;
      // Who has voted counts only where it can change this agent's answer, and answers only that.
      const ballotsCast = seatedWhileVoting(view, query.agent) ? snapshot.ballotsCast : [];
      const next = nextAction({ view, events, ballotsCast, agent: query.agent, now: deps.now() });
      const roles = ROLE_ORDER.filter((r) => row.roles.includes(r));
      return {
        contractId: row.contractId,
        role: query.role ?? roles[0]!,
        roles,
        status: view.status,
        nextAction: next?.action ?? null,
        actionDeadline: next?.deadline ?? null,
        milestone: view.currentMilestone ?? null,
      };
    }),
  );
  const last = rows[rows.length - 1];
  return {
    contracts: contracts.filter((c) => c !== undefined),
    nextCursor: rows.length === query.limit && last !== undefined ? encodeCursor(last) : null,
  };
}
