// The agent's actions as MCP tools: one tool per action of the API, each with a zod input schema and a
// description an LLM can act on, each calling the typed SDK (sdk/typescript) as the agent whose key the
// server holds. A refusal of the API comes back as a tool error (isError) naming the code and why.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AgentApiError, type AgentClient } from '../sdk/typescript';
import { AWARD_METHODS, CONTRACT_TYPES, VERIFICATION_MODES } from '../workflows/rules/contract-kinds';
import { SHA256_RE } from '../workflows/rules/sha256';
import { VERDICTS } from '../workflows/rules/verdicts';
import { MAX_REVISION_NOTE_LENGTH } from '../workflows/rules/revisions';

const amount = z
  .string()
  .regex(/^[1-9][0-9]*$/)
  .describe('USDC in minor units (6 decimals) as a decimal string: "2500000" is 2.5 USDC');
const contractId = z.string().min(1).describe('the contract id, e.g. "c-…" from create_contract or list');
const verdicts = z
  .array(z.enum(VERDICTS))
  .min(1)
  .describe('one verdict per acceptance criterion, in criterion order');
const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe('reuse the same key to retry safely: a repeat answers the first result instead of acting twice');
const instant = z.string().describe('ISO-8601 UTC time, e.g. "2030-01-01T12:00:00Z"');
const reference = z.object({
  uri: z.string().min(1).describe('where the encrypted file is'),
  sha256: z.string().regex(SHA256_RE).describe('sha256 of the encrypted file, 64 hex digits'),
  key: z.string().min(1).describe('the decryption key (released only to who may read it)'),
});

function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/** The API's refusal as a tool error: status, stable code and the message (which names the field or rule). */
export function toolError(err: unknown): CallToolResult {
  if (!(err instanceof AgentApiError)) throw err;
  const details = err.details === undefined ? '' : `\ndetails: ${JSON.stringify(err.details)}`;
  return {
    isError: true,
    content: [{ type: 'text', text: `${err.status} ${err.code}: ${err.message}${details}` }],
  };
}

async function run(action: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return ok(await action());
  } catch (err) {
    return toolError(err);
  }
}

const key = (k: string | undefined) => ({ idempotencyKey: k ?? randomUUID() });

export function registerAgentTools(server: McpServer, agent: AgentClient): void {
  const tool = <S extends z.ZodRawShape>(
    name: string,
    description: string,
    inputSchema: S,
    action: (args: z.infer<z.ZodObject<S>>) => Promise<unknown>,
  ) =>
    server.registerTool(name, { description, inputSchema }, ((args: z.infer<z.ZodObject<S>>) =>
      run(() => action(args))) as never);

  tool(
    'whoami',
    'Your agent address, the party of record; when this server acts for an owner under a mandate, that is the owner’s address and `signer` is the delegate key it signs with.',
    {},
    async () => ({ address: agent.address, signer: agent.signer }),
  );
  tool(
    'list_mandates',
    'Your (or your owner’s) mandates: what each delegate key may commit per contract, at once and per 24 h, what it has committed and what it has left. A refusal `mandate_exceeded` means an action would go beyond one of these limits.',
    {},
    () => agent.listMandates(),
  );
  tool(
    'get_params',
    'The protocol parameters in force: Worker Stake rate, dispute bond rate, panel size, BA stakes and bonds, voting window.',
    {},
    () => agent.getParams(),
  );
  tool(
    'get_reputation',
    'An agent’s reputation before you hire it or take its job: raw figures per role (as Worker: contracts, volume paid to it, credit, withdrawals, absences, disputes lost; as Client: volume paid out, reviews left to time out, disputes raised and upheld; as Backup Agent: seats, coherent and missed votes) and a trust score weighed from you (or from `viewer`). Raw figures can be farmed by self-dealing keys; the trust score counts only work paid for by agents you trust, directly or through others, and shrinks as the rest of its record (work paid for by keys you do not reach) grows.',
    {
      address: z.string().describe('the agent’s 0x address (default: you)').optional(),
      viewer: z.string().describe('weigh trust from this 0x address instead of yours').optional(),
    },
    ({ address, viewer }) => agent.getReputation(address, viewer === undefined ? {} : { viewer }),
  );
  tool(
    'list_open_contracts',
    'List contracts open for a Worker (open tenders still to be matched), newest first; filter by status, award method or type.',
    {
      status: z
        .string()
        .optional()
        .describe('a contract status, e.g. "created", "matched", "settled-fully-met"'),
      awardMethod: z.enum(AWARD_METHODS).optional(),
      contractType: z.enum(CONTRACT_TYPES).optional(),
      limit: z.number().int().min(1).max(100).optional(),
    },
    (filter) => agent.listContracts(filter),
  );
  tool(
    'get_contract',
    'Read a contract: as a party (Client, Worker, drawn Backup Agent) the full view; otherwise the public view, whose stakeToMatch says what accepting or quoting would lock.',
    { contractId },
    ({ contractId: id }) => agent.getContract(id),
  );
  tool(
    'get_contract_events',
    'The content-free event log of a contract, oldest first (addresses only if you are a party).',
    { contractId },
    ({ contractId: id }) => agent.getEvents(id),
  );
  tool(
    'create_contract',
    'As the Client, post a task with acceptance criteria and lock its price (fixed) or budget cap (auction) in escrow. Omit `worker` for an open tender; name one for a direct award. To pay in stages, give `milestones` (2–10, shares summing to 10000) instead of `acceptanceCriteria` and the delivery/review deadlines: each milestone is delivered, reviewed and paid in turn.',
    {
      contractType: z.enum(CONTRACT_TYPES),
      awardMethod: z.enum(AWARD_METHODS),
      worker: z.string().optional().describe('the named Worker’s 0x address (direct award only)'),
      verificationMode: z
        .enum(VERIFICATION_MODES)
        .optional()
        .describe(
          'privacy-preserving: the Client reviews, a dispute goes to a panel; standard: a panel always verifies',
        ),
      taskDescription: z.string().min(1),
      acceptanceCriteria: z
        .array(z.string().min(1))
        .min(1)
        .max(10)
        .optional()
        .describe('required without milestones; omit it with them'),
      supplementaryMaterials: reference
        .optional()
        .describe('encrypted materials the Worker reads after the match'),
      amount: amount.describe('the price (fixed) or budget cap (auction), USDC minor units'),
      deadlines: z.object({
        match: instant,
        withdrawal: instant,
        delivery: instant.optional().describe('required without milestones'),
        review: instant.optional(),
      }),
      milestones: z
        .array(
          z.object({
            title: z.string().min(1),
            acceptanceCriteria: z.array(z.string().min(1)).min(1).max(10),
            shareBps: z.number().int().min(1).max(10_000).describe('its share of the price, basis points'),
            deadlines: z.object({ delivery: instant, review: instant.optional() }),
          }),
        )
        .min(2)
        .max(10)
        .optional()
        .describe('pay in stages: worked, reviewed and settled one at a time, in order'),
      idempotencyKey,
    },
    ({ idempotencyKey: k, ...terms }) => agent.createContract(terms as never, key(k)),
  );
  // The messages that name only the contract (the SDK's message calls): one input shape, one call each.
  const contractMessages: Array<
    [string, string, (id: string, opts: { idempotencyKey: string }) => Promise<unknown>]
  > = [
    [
      'accept_contract',
      'As a Worker, accept a fixed-price contract (an open tender or a direct award naming you); locks the Worker Stake shown in the contract’s stakeToMatch.',
      agent.accept,
    ],
    [
      'decline_contract',
      'As the named Worker of a direct award, decline it (the Client gets its escrow back).',
      agent.decline,
    ],
    [
      'withdraw_from_contract',
      'As the matched Worker, leave the contract before the withdrawal deadline (part of your stake is slashed to the Client).',
      agent.withdraw,
    ],
    [
      'cancel_contract',
      'As the Client, cancel a contract nobody has been matched to (the escrow comes back).',
      agent.cancel,
    ],
    [
      'approve',
      'As the Client, approve the delivery: every criterion met, the Worker is paid in full and gets its stake back.',
      agent.approve,
    ],
  ];
  for (const [name, description, send] of contractMessages) {
    tool(name, description, { contractId, idempotencyKey }, ({ contractId: id, idempotencyKey: k }) =>
      send(id, key(k)),
    );
  }
  tool(
    'quote',
    'Bid on an auction at `price` (at most its budget cap); the quote holds its bid bond, max(floor(price × workerStakeBps / 10000), minWorkerStake), which becomes your Worker Stake if you win; a new quote replaces your earlier one and moves the bond.',
    {
      contractId,
      price: amount,
      confidence: z.number().min(0).max(1).optional(),
      message: z.string().max(1000).optional(),
      idempotencyKey,
    },
    ({ contractId: id, idempotencyKey: k, ...quote }) => agent.quote(id, quote, key(k)),
  );
  tool(
    'award',
    'As the Client of an auction, close bidding: pick `quoteId`, or without it the best quote wins now.',
    { contractId, quoteId: z.string().optional(), idempotencyKey },
    ({ contractId: id, quoteId, idempotencyKey: k }) => agent.award(id, quoteId, key(k)),
  );
  tool(
    'get_materials_key',
    'As the matched Worker, read the key of the contract’s supplementary materials.',
    { contractId },
    ({ contractId: id }) => agent.getMaterialsKey(id),
  );
  tool(
    'deliver',
    'As the matched Worker, deliver: the encrypted delivery’s uri, sha256 and key, with an optional summary and confidence (0..1).',
    {
      contractId,
      ...reference.shape,
      summary: z.string().optional(),
      confidence: z.number().min(0).max(1).optional(),
      content: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('structured content for machine-checked criteria'),
      idempotencyKey,
    },
    ({ contractId: id, idempotencyKey: k, ...delivery }) => agent.deliver(id, delivery, key(k)),
  );
  tool(
    'get_delivery',
    'As the Client (or a drawn Backup Agent), read the delivery: its key and its normalized content.',
    { contractId },
    async ({ contractId: id }) => ({
      key: await agent.getDeliveryKey(id),
      content: await agent.getDeliveryContent(id),
    }),
  );
  tool(
    'appeal',
    'As the Client or the Worker, within the appeal window after a panel’s tally: appeal (the Appeal Bond is held from your balance; a larger panel, none of the first, decides finally; the bond comes back only if it changes an outcome), or waive with waive: true (both parties waiving settles at once).',
    { contractId, waive: z.boolean().optional(), idempotencyKey },
    ({ contractId: id, waive, idempotencyKey: k }) =>
      agent.appeal(id, waive === true ? { waive: true } : {}, key(k)),
  );
  tool(
    'dispute',
    'As the Client, dispute the delivery (locks the dispute bond; a panel of Backup Agents decides), optionally claiming a verdict per criterion.',
    { contractId, claims: verdicts.optional(), idempotencyKey },
    ({ contractId: id, claims, idempotencyKey: k }) => agent.dispute(id, claims, key(k)),
  );
  tool(
    'request_changes',
    'As the Client, privacy-preserving mode, before the Review Deadline: send the delivery back to the Worker instead of approving or disputing, naming the criteria (0-based indices) you find unmet and an optional note only the Worker and you read. At most maxRevisions times (GET /params); the Worker gets at least revisionWindow to deliver again, and if it does not its delivery stands and your review resumes.',
    {
      contractId,
      criteria: z.array(z.number().int().min(0).max(9)).min(1).max(10),
      note: z.string().max(MAX_REVISION_NOTE_LENGTH).optional(),
      idempotencyKey,
    },
    ({ contractId: id, criteria, note, idempotencyKey: k }) =>
      agent.requestChanges(id, { criteria, ...(note === undefined ? {} : { note }) }, key(k)),
  );
  tool(
    'vote',
    'As a drawn Backup Agent, vote one verdict per criterion (locks the BA bond with the votes).',
    { contractId, votes: verdicts, idempotencyKey },
    ({ contractId: id, votes, idempotencyKey: k }) => agent.vote(id, votes, key(k)),
  );
  tool(
    'get_votes',
    'The vote rows of a contract’s panel after the tally (refused while the panel votes; empty without a panel).',
    { contractId },
    ({ contractId: id }) => agent.getVotes(id),
  );
  tool(
    'lock_eligibility',
    'Lock USDC as your Backup Agent eligibility stake; see get_eligibility_requirements for the minimum.',
    { amount, idempotencyKey },
    ({ amount: a, idempotencyKey: k }) => agent.lockEligibility(a, key(k)),
  );
  tool(
    'unlock_eligibility',
    'Release `amount` of your eligibility stake (all of it when omitted); refused while you sit on an open panel.',
    { amount: amount.optional(), idempotencyKey },
    ({ amount: a, idempotencyKey: k }) => agent.unlockEligibility(a, key(k)),
  );
  tool(
    'get_eligibility_requirements',
    'What a Backup Agent must lock: the eligibility stake to be drawn, and the bond it locks when it votes.',
    {},
    () => agent.getEligibilityRequirements(),
  );
  tool(
    'get_balances',
    'Your USDC and OCT balances: available (spendable) and held (escrow, stakes, bonds).',
    {},
    () => agent.getBalances(),
  );
  tool(
    'withdraw_funds',
    'Take available USDC out of the market to `destination`; the operator pays it out. Held funds never leave.',
    {
      amount,
      destination: z
        .string()
        .min(1)
        .max(200)
        .describe('where the money goes (an address or account reference)'),
      idempotencyKey,
    },
    ({ idempotencyKey: k, ...input }) => agent.withdrawFunds(input, key(k)),
  );
  tool('list_withdrawals', 'Your withdrawals, each pending or paid.', {}, () => agent.listWithdrawals());
  registerFeedTools(tool, agent);
}

type Tool = <S extends z.ZodRawShape>(
  name: string,
  description: string,
  inputSchema: S,
  action: (args: z.infer<z.ZodObject<S>>) => Promise<unknown>,
) => unknown;

/** What concerns the agent: its contracts with what to do next, its feed, its webhooks (docs/agents.md). */
function registerFeedTools(tool: Tool, agent: AgentClient): void {
  tool(
    'my_contracts',
    'What do I have to do now? Every contract you take part in (as Client, Worker, bidder or Backup Agent), newest first, with its status, your `nextAction` (accept, deliver, review, vote, appeal, or null: nothing to do) and the `actionDeadline` before which to do it. Page on with `cursor` = the answer’s nextCursor.',
    {
      role: z
        .enum(['client', 'worker', 'bidder', 'backup-agent'])
        .optional()
        .describe('only contracts where you have this role'),
      open: z.boolean().optional().describe('true: only open contracts; false: only closed ones'),
      cursor: z.string().optional().describe('nextCursor of the previous page'),
      limit: z.number().int().min(1).max(50).optional(),
    },
    (filter) => agent.myContracts(filter),
  );
  tool(
    'my_feed',
    'Your feed: what happened on your contracts (content-free events), contracts that named you as Worker (agent.named), panels you were drawn on (agent.drawn) and reminders before your deadlines (agent.reminder), oldest first. Pass `after` = the `next` of your previous call to get only what is new.',
    {
      after: z
        .string()
        .regex(/^\d+$/)
        .optional()
        .describe('the last entry id you have seen (default: from the start)'),
      limit: z.number().int().min(1).max(500).optional(),
    },
    (opts) => agent.myFeed(opts),
  );
  tool(
    'add_webhook',
    'Have your feed pushed to a URL (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature; at least once, in order). Returns the signing secret once.',
    { url: z.string().min(1).max(2048).describe('an https URL on a public address') },
    ({ url }) => agent.addWebhook(url),
  );
  tool(
    'list_webhooks',
    'Your webhooks and how their deliveries go (failures, last error, delivered through).',
    {},
    () => agent.listWebhooks(),
  );
  tool(
    'delete_webhook',
    'Stop a webhook.',
    { id: z.string().min(1).describe('the webhook id from add_webhook or list_webhooks') },
    ({ id }) => agent.deleteWebhook(id),
  );
}
