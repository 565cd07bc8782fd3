// Outcome entries for the log's and reputation's tests: a settled contract's parties, built through
// the same pure builder the workflow uses (workflows/rules/outcomes.ts).
import type { ContractEnding, OutcomeEntry } from '../../workflows/rules/outcomes';
import { outcomeEntries } from '../../workflows/rules/outcomes';

export function agent(n: number): string {
  return `0x${n.toString(16).padStart(40, '0')}`;
}

export function ending(overrides: Partial<ContractEnding> & { contractId: string }): ContractEnding {
  return {
    milestoneIndex: null,
    ending: 'approved',
    client: agent(1),
    worker: agent(2),
    payment: 5_000_000n,
    criteriaMet: ['met', 'met'],
    scores: new Map(),
    disputed: false,
    appealedBy: null,
    revisionsRequested: 0,
    difficulty: 'trivial',
    votes: [],
    endedAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function entriesOf(overrides: Partial<ContractEnding> & { contractId: string }): OutcomeEntry[] {
  return outcomeEntries(ending(overrides));
}
