// The API's side of the contract workflows: start one, send it a message, read its view, its events
// and the listing (api/contracts/listing.ts). Temporal's own errors are turned into the API's
// (docs/api.md "Errors") here or in the app's onError (api/errors/mapping.ts).
import type { Client, WorkflowClient, WorkflowHandle } from '@temporalio/client';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import {
  CONTRACT_WORKFLOW_TYPE,
  seatsFreedSignal,
  contractWorkflowId,
  createdUpdate,
  type VotesResult,
  type ContractInput,
  type ContractSnapshot,
  type ContractView,
  type MessageReceipt,
} from '../../workflows/definitions';
import type { ContractRecordStore } from '../../store/records';
import { createdAttributes } from '../../workflows/contract/visible-attributes';
import type { ContractEvent } from '../../workflows/rules/events';
import { conflict, contractNotFound } from '../errors';
import { listContracts, listingCursorKey, type ContractPage, type ListFilter } from './listing';
import { RefusalMemo } from './refusal-memo';
import { FixedStakeMemo } from './fixed-stake-memo';
import { ContractFactsMemo } from './facts-memo';
import { isTerminal } from '../../workflows/rules/status';
import { sendUntilProcessed } from '../errors/unprocessed-update';

export interface ContractGateway {
  /** Starts the workflow and waits until its escrow is held; InsufficientFunds otherwise. */
  create(input: ContractInput, staticSummary: string): Promise<ContractView>;
  /** Tells a contract waiting for its panel that seats may be free (api/contracts/seat-wake.ts); absent in test doubles. */
  seatsFreed?(contractId: string): Promise<void>;
  /** The view, or undefined when no such contract exists (never started, or its escrow failed). */
  view(contractId: string): Promise<ContractView | undefined>;
  /**
   * The answer a creation gets, for a contract already started (a keyed creation retried after its answer
   * was lost): waits, as the first call did, until the escrow is held or refused.
   */
  created(contractId: string): Promise<ContractView | undefined>;
  /** The event log of a contract already known to exist (none for an unknown one). */
  eventLog(contractId: string): Promise<ContractEvent[]>;
  /**
   * The view, the event log and the current panel's Backup Agents whose ballot is in (none once closed: no
   * panel votes any more), read together; undefined when no such contract exists. For next actions only: the
   * ballots are never answered to a caller (who has voted is sealed until the tally).
   */
  snapshot(contractId: string): Promise<ContractSnapshot | undefined>;
  /** The vote rows once tallied (`{ sealed: true }` before; none without a panel); undefined when no such contract exists. */
  votes(contractId: string): Promise<VotesResult | undefined>;
  /** What the Update with this ID answered, if the contract ever took it (a retry after a lost answer): the view after it. */
  earlierAnswer(contractId: string, updateId: string | undefined): Promise<ContractView | undefined>;
  /**
   * Sends a message as an Update and returns the view after it. The Update answers a small receipt
   * (the history keeps it); a bounded message's receipt carries the view, which the API completes
   * from what it remembers of the contract (api/contracts/facts-memo.ts); otherwise (a quote, an
   * award, a contract it remembers nothing of) the view is read from the read model, which the
   * workflow wrote before it answered.
   */
  send<Arg>(
    contractId: string,
    update: UpdateDefinition<MessageReceipt, [Arg]>,
    arg: Arg,
    updateId?: string,
  ): Promise<ContractView>;
  /** Open and closed contracts from the read model (api/contracts/listing.ts). */
  list(filter: ListFilter): Promise<ContractPage>;
  /** True when the Temporal server answers. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** The Worker Stake of a fixed-price contract this process has read before (api/contracts/fixed-stake-memo.ts). */
  fixedStake(contractId: string): bigint | undefined;
  /** The acceptance criteria of a contract this process has read before (api/contracts/facts-memo.ts). */
  knownCriteria(contractId: string): ContractView['acceptanceCriteria'] | undefined;
}

/**
 * One Update ID per contract for `created`: a retried creation (its answer lost to a timeout, a dead API or a
 * restarting server) attaches to the first attempt's Update, or gets its stored outcome, instead of adding
 * one more distinct Update to the workflow on every attempt (the server caps them per workflow).
 */
function createdUpdateId(contractId: string): string {
  return `created:${contractId}`;
}

/**
 * How a contract starts (the API's gateway and the workflow tests' harness alike): update-with-start of
 * `created`, answered once the escrow is held; a contract ID already used is refused.
 */
export function startContract(
  workflows: WorkflowClient,
  taskQueue: string,
  input: ContractInput,
  staticSummary: string,
): Promise<ContractView> {
  const startWorkflowOperation = new WithStartWorkflowOperation(CONTRACT_WORKFLOW_TYPE, {
    workflowId: contractWorkflowId(input.contractId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'FAIL',
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    staticSummary,
    // Its first search attributes, so its first workflow task does not upsert them (visible-attributes.ts).
    typedSearchAttributes: createdAttributes(input),
  });
  return workflows.executeUpdateWithStart(createdUpdate, {
    startWorkflowOperation,
    updateId: createdUpdateId(input.contractId),
  });
}

/**
 * Every read answers from the contract read model (docs/records.md): the store the workflow writes at
 * each transition, before an Update answers. No read queries or polls a workflow.
 */
export function createContractGateway({
  client,
  taskQueue,
  records,
  cursorKey,
}: {
  client: Client;
  taskQueue: string;
  records: ContractRecordStore;
  /** The deployment's key that seals listing cursors (CURSOR_KEY; api/contracts/listing.ts). */
  cursorKey: Uint8Array;
}): ContractGateway {
  const listing = { records, cursorKey: listingCursorKey(cursorKey) };
  const refusals = new RefusalMemo();
  const stakes = new FixedStakeMemo();
  const facts = new ContractFactsMemo();
  const seen = (view: ContractView): ContractView => {
    stakes.remember(view);
    facts.remember(view);
    return view;
  };
  const handle = (contractId: string): WorkflowHandle =>
    client.workflow.getHandle(contractWorkflowId(contractId));

  async function readView(contractId: string): Promise<ContractView | undefined> {
    const record = await records.get(contractId);
    return record ? seen(record.view) : undefined;
  }

  /**
   * The view an Update answered, completed; undefined when it answered none (a receipt) or the API
   * does not know the fields it leaves out. A closed contract answers from its record, as readView.
   */
  async function answeredView(contractId: string, answer: MessageReceipt): Promise<ContractView | undefined> {
    if (answer.view === undefined) return undefined;
    if (isTerminal(answer.view.status)) return readView(contractId);
    const view = facts.complete(answer.view);
    return view && seen(view);
  }

  async function eventLog(contractId: string): Promise<ContractEvent[]> {
    return (await records.get(contractId))?.events ?? [];
  }

  return {
    create: async (input, staticSummary) =>
      seen(await startContract(client.workflow, taskQueue, input, staticSummary)),

    view: readView,

    async created(contractId) {
      try {
        // The `created` Update only waits for the escrow and reads: sending it again changes nothing.
        return seen(
          await handle(contractId).executeUpdate(createdUpdate, { updateId: createdUpdateId(contractId) }),
        );
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        return readView(contractId); // closed since: its record answers
      }
    },

    eventLog,

    async snapshot(contractId) {
      const record = await records.get(contractId);
      return record && { view: seen(record.view), events: record.events, ballotsCast: record.ballotsCast };
    },

    votes: async (contractId) => (await records.get(contractId))?.votes,

    async earlierAnswer(contractId, updateId) {
      if (updateId === undefined) return undefined;
      try {
        await handle(contractId).getUpdateHandle(updateId).result();
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return undefined; // no such Update (or contract)
        throw err;
      }
      return readView(contractId);
    },

    async send(contractId, update, arg, updateId) {
      const caller = (arg as { caller?: string }).caller;
      refusals.check(contractId, update.name, caller);
      let answer: MessageReceipt;
      try {
        answer = await sendUntilProcessed(() =>
          handle(contractId).executeUpdate(update, {
            args: [arg],
            ...(updateId ? { updateId } : {}),
          }),
        );
      } catch (err) {
        refusals.note(contractId, update.name, caller, err);
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        // A closed workflow refuses Updates as "not found": a finished contract is a wrong state.
        const view = await readView(contractId);
        if (view === undefined) throw contractNotFound(contractId);
        throw conflict(`contract ${contractId} is ${view.status}`, { status: view.status }, 'wrong_state');
      }
      // An Update ID may name an Update taken earlier, whose answer is the view back then; the caller
      // gets the view now, as for a message without its view in the answer.
      const view =
        (updateId ? undefined : await answeredView(contractId, answer)) ?? (await readView(contractId));
      if (view === undefined) throw new Error(`contract ${contractId} took a message but has no view`);
      return view;
    },

    list: (filter) => listContracts(listing, filter),

    async seatsFreed(contractId) {
      await handle(contractId).signal(seatsFreedSignal);
    },

    fixedStake: (contractId) => stakes.stakeOf(contractId),

    knownCriteria: (contractId) => facts.criteriaOf(contractId),

    async ping(timeoutMs = 2000) {
      try {
        await client.connection.withDeadline(Date.now() + timeoutMs, () =>
          client.workflowService.getSystemInfo({}),
        );
        return true;
      } catch {
        return false;
      }
    },
  };
}
