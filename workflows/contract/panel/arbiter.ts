// The operator as trusted arbiter: a contract whose recruitment window passed without a full panel
// waits for the operator's verdict per criterion. The verdict is final, settles the contract by the
// settlement table (settlement/closing.ts) and pays or slashes no Backup Agent (none was seated).
import { condition, setHandler } from '@temporalio/workflow';
import { FailureType } from '../../definitions';
import {
  arbiterVerdictsUpdate,
  type ArbiterVerdictsInput,
  type ArbiterVerdictsResult,
} from '../../operator-messages';
import { agentVerifiedEvent } from '../../rules/event-constructors';
import { arbiterVerdictsProblem } from '../../rules/recruitment';
import { reject, rejection } from '../rejection';
import type { Contract } from '../state';
import { writeReadModel } from '../read-model';

function validateVerdicts(c: Contract, input: unknown): void {
  if (!c.awaitingArbiter) {
    reject(
      rejection(
        FailureType.Conflict,
        'not_awaiting_arbiter',
        'the contract is not waiting for the trusted arbiter',
      ),
    );
  }
  const verdicts = (input as Partial<ArbiterVerdictsInput> | null)?.verdicts;
  const problem = arbiterVerdictsProblem(verdicts, c.terms.acceptanceCriteria.length);
  if (problem !== null)
    reject(rejection(FailureType.BadInput, 'invalid_input', `verdicts: ${problem}`, 'verdicts'));
}

export function registerArbiterHandler(c: Contract): void {
  setHandler(
    arbiterVerdictsUpdate,
    async (input: ArbiterVerdictsInput): Promise<ArbiterVerdictsResult> => {
      const criteriaMet = [...input.verdicts];
      c.record(
        agentVerifiedEvent(c.eventContext('operator'), {
          agentId: 'operator',
          role: 'trusted-arbiter',
          deliverySha256: c.work.delivery!.sha256,
          verdicts: criteriaMet,
        }),
      );
      c.decide({ kind: 'resolve', source: 'trusted-arbiter', criteriaMet, actor: 'operator' });
      await condition(() => c.terminal || c.operator.stuck !== null);
      await writeReadModel(c);
      return {
        contractId: c.contractId,
        status: c.status,
        criteriaMet: c.settlement.criteriaMet as ArbiterVerdictsResult['criteriaMet'],
      };
    },
    { validator: (input) => validateVerdicts(c, input) },
  );
}
