// The wire schemas of the HTTP surface (docs/api.md): request parts the routes validate, and the
// response shapes each route declares. Bodies are strict: a caller cannot slip in `status`, `worker`
// or an amount it does not own. A response schema is declared once: /openapi.json publishes it, the
// handler's typed `c.json` must fit it, and sdk/typescript/types.ts infers the SDK's answer types from it.
import { z } from '@hono/zod-openapi';
import {
  AWARD_METHODS,
  CONTRACT_CODES,
  CONTRACT_TYPES,
  VERIFICATION_MODES,
} from '../../workflows/rules/contract-kinds';
import { MAX_QUOTE_MESSAGE_LENGTH } from '../../workflows/rules/auction';
import { MAX_REVISION_NOTE_LENGTH } from '../../workflows/rules/revisions';
import { ADDRESS_RE, CANONICAL_ADDRESS_RE } from '../../workflows/rules/address';
import { positiveAmountSchema } from '../../workflows/rules/money';
import { deliveryBodySchema } from '../ingest';
import { CONTRACT_STATUSES } from '../../workflows/rules/status';
import { DIFFICULTY_LEVELS } from '../../workflows/rules/difficulty';
import { VERDICTS } from '../../workflows/rules/verdicts';

const address = z
  .string()
  .regex(CANONICAL_ADDRESS_RE)
  .openapi({ example: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23' });
const amount = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/)
  .openapi({ description: 'minor units (6 decimals)', example: '2500000' });
const instant = z.string().openapi({ format: 'date-time', example: '2030-01-01T00:00:00.000Z' });

export const contractIdParams = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'c-abcdefghijklmnopqrstuvwxyz' }),
});
export const addressParams = z.object({
  address: z.string().openapi({
    param: { name: 'address', in: 'path' },
    example: '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23',
  }),
});

/** Message routes take no body; `{}` is allowed, any field is refused. */
export const emptyBody = z.object({}).strict().openapi('EmptyBody');

export const listQuerySchema = z
  .object({
    status: z.enum(CONTRACT_STATUSES).optional(),
    awardMethod: z.enum(AWARD_METHODS).optional(),
    contractType: z.enum(CONTRACT_TYPES).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional().openapi({ example: 50 }),
    cursor: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .openapi({ description: "the previous page's nextCursor, with the same filters" }),
  })
  .strict();

export const eligibilityLockBody = z
  .object({ amount: positiveAmountSchema })
  .strict()
  .openapi('EligibilityLock');
export const eligibilityUnlockBody = z
  .object({ amount: positiveAmountSchema.optional() })
  .strict()
  .openapi('EligibilityUnlock');
export const depositBody = z
  .object({
    address: z.string().regex(ADDRESS_RE, 'must be an address (0x + 40 hex)'),
    asset: z.literal('USDC'),
    amount: positiveAmountSchema,
  })
  .strict()
  .openapi('Deposit');

export const errorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) })
  .openapi('Error');

const criterion = z.object({ text: z.string(), check: z.record(z.string(), z.unknown()).optional() });
const deadlines = z.object({
  match: instant,
  withdrawal: instant,
  delivery: instant,
  review: instant.nullable(),
});
const contentRef = z.object({ uri: z.string(), sha256: z.string() });
const quoteSchema = z
  .object({
    quoteId: z.string(),
    bidder: address,
    price: amount,
    confidence: z.number().nullable(),
    message: z.string().nullable(),
    submittedAt: instant,
    bidBond: amount.openapi({
      description:
        'the bidder’s Worker Stake for this price, held while the quote lives; the winner’s becomes its stake',
    }),
  })
  .openapi('Quote');

const milestoneViewSchema = z
  .object({
    index: z.number().int().openapi({ description: '0-based', example: 0 }),
    title: z.string().openapi({ example: 'Outline' }),
    shareBps: z.number().int().openapi({ description: 'its share of the price', example: 3000 }),
    acceptanceCriteria: z.array(criterion),
    status: z.enum(['pending', ...CONTRACT_STATUSES]).openapi({
      description:
        '`pending` until its turn, the contract’s status while it is worked, then how it ended (settled-*, or cancelled-absent)',
    }),
    amount: amount.nullable().openapi({
      description:
        'floor(price × shareBps / 10000), the last milestone the rest; null until an auction’s price is known',
    }),
    deadlines: z.object({ delivery: instant, review: instant.nullable() }),
    criteriaMet: z
      .array(z.enum(VERDICTS))
      .nullable()
      .openapi({ description: 'once it is resolved; the parties only (null in the public view)' }),
    payment: amount
      .nullable()
      .openapi({ description: 'what it paid the Worker once it ended; the parties only' }),
  })
  .openapi('Milestone');

const publicFields = {
  contractId: z.string(),
  status: z.enum(CONTRACT_STATUSES),
  contractCode: z.enum(CONTRACT_CODES),
  contractType: z.enum(CONTRACT_TYPES),
  awardMethod: z.enum(AWARD_METHODS),
  verificationMode: z.enum(VERIFICATION_MODES),
  difficulty: z.enum(DIFFICULTY_LEVELS),
  taskDescription: z.string(),
  acceptanceCriteria: z.array(criterion),
  price: amount.nullable(),
  budget: amount.nullable(),
  workerStake: amount.nullable(),
  deadlines,
  nextDeadline: z.object({ kind: z.string(), at: instant }).nullable(),
  createdAt: instant,
  quoteCount: z
    .number()
    .int()
    .nullable()
    .openapi({ description: 'auctions: how many bidders hold a live quote (never their prices)' }),
  ownQuote: quoteSchema.optional().openapi({ description: 'the caller’s own live quote (a bidder)' }),
  panelPending: z.boolean().openapi({
    description:
      'no full Backup Agent panel can be seated yet: the draw is retried as agents become eligible',
  }),
  awaitingArbiter: z.boolean().openapi({
    description: 'the recruitment window passed without a panel: the operator decides as trusted arbiter',
  }),
  appealDeadline: instant
    .nullable()
    .openapi({ description: 'after a panel’s tally: the end of the appeal window' }),
  mayAppeal: z
    .array(z.enum(['client', 'worker']))
    .openapi({ description: 'the parties that may still appeal or waive now' }),
  appealedBy: z.enum(['client', 'worker']).nullable(),
  revisionCount: z
    .number()
    .int()
    .openapi({ description: 'change requests the Client has made (privacy-preserving mode)', example: 0 }),
  maxRevisions: z.number().int().openapi({
    description: 'change requests the Client may make (per milestone with milestones)',
    example: 2,
  }),
  milestones: z.array(milestoneViewSchema).nullable().openapi({
    example: null,
    description:
      'the milestones in order (docs/protocol.md §6a); null without them. With milestones the contract’s acceptanceCriteria, criteriaMet, delivery, deadlines.delivery/review and revisionCount are the current milestone’s',
  }),
  currentMilestone: z.number().int().nullable().openapi({
    description: 'the milestone being worked (0-based), the last once ended; null without milestones',
    example: null,
  }),
};

const revisionSchema = z
  .object({
    requestedAt: instant,
    criteria: z
      .array(z.number().int())
      .openapi({ description: 'indices of the criteria found unmet', example: [1] }),
    note: z.string().nullable().openapi({
      description: 'the Client’s note to the Worker: the Client and the Worker only (null for anyone else)',
      example: 'The summary misses the Q3 figures.',
    }),
    deliveryDeadline: instant.openapi({
      description: 'the Delivery Deadline this request set: max(the one before, request + revisionWindow)',
      example: '2030-01-03T01:00:00.000Z',
    }),
    reviewDeadline: instant.openapi({
      description: 'the Review Deadline this request set: moved as far as the Delivery Deadline moved',
      example: '2030-01-03T02:00:00.000Z',
    }),
  })
  .openapi('Revision');

const stakeToMatchSchema = z
  .object({
    workerStakeBps: z.number().int(),
    minWorkerStake: amount.openapi({ description: 'the floor of every Worker Stake and bid bond' }),
    workerStake: amount.nullable().openapi({ description: 'for a fixed price; null for an auction' }),
    rule: z.string(),
  })
  .nullable()
  .openapi('StakeToMatch', {
    description: 'what accepting or quoting would lock, while the contract is open (status created)',
  });

export const publicViewSchema = z
  .object({ view: z.literal('public'), ...publicFields, stakeToMatch: stakeToMatchSchema })
  .openapi('PublicContractView');
export const partyViewSchema = z
  .object({
    view: z.literal('party'),
    role: z.enum(['client', 'worker', 'backup-agent']),
    ...publicFields,
    client: address,
    worker: address.nullable(),
    criteriaMet: z.array(z.enum(VERDICTS)).nullable(),
    backupAgents: z.array(address),
    escrowedFunds: amount,
    disputeBond: amount.nullable(),
    payment: amount.nullable(),
    materials: contentRef.nullable(),
    delivery: contentRef
      .extend({
        contentHash: z.string(),
        deliveredAt: instant,
        round: z.number().int().openapi({
          description: '0, or n for a redelivery after the n-th change request',
          example: 0,
        }),
      })
      .nullable(),
    cancellationReason: z.string().nullable(),
    paramsVersion: z.number(),
    workerStakeBps: z.number().int().openapi({ description: 'the Worker Stake rate in basis points' }),
    minWorkerStake: amount.openapi({ description: 'the floor of every Worker Stake and bid bond' }),
    disputeClaims: z.array(z.enum(VERDICTS)).nullable(),
    voting: z.object({ drawnAt: instant, endsAt: instant, tallied: z.boolean() }).nullable(),
    keyReaders: z
      .object({ materials: z.array(address), delivery: z.array(address) })
      .openapi({ description: 'who may read which key (docs/protocol.md §9)' }),
    autoVerification: z
      .object({
        agentId: z.string(),
        target: z.string(),
        evaluatedAt: instant,
        verdict: z.enum(['pass', 'fail', 'revise']),
        results: z.array(
          z.object({
            criterionIndex: z.number(),
            key: z.string(),
            checkType: z.enum(['consistency', 'quality', 'time_bound']),
            score: z.number(),
            roundedScore: z.number(),
            verdict: z.enum(VERDICTS),
            breakdown: z.record(z.string(), z.unknown()),
          }),
        ),
      })
      .nullable()
      .openapi({
        description: 'the automatic verifier’s scores (docs/protocol.md §10): informs, never decides',
      }),
    quotes: z
      .array(quoteSchema)
      .optional()
      .openapi({ description: 'auctions: every live quote, for the Client only' }),
    winningQuoteId: z.string().nullable(),
    revisions: z
      .array(revisionSchema)
      .openapi({ description: 'the Client’s change requests, oldest first, with the deadlines each set' }),
    stakeToMatch: stakeToMatchSchema,
  })
  .openapi('PartyContractView');
export const contractViewSchema = z.union([partyViewSchema, publicViewSchema]).openapi('ContractView');

/** A row of GET /contracts: what the search attributes tell, no terms. */
export const listedContractSchema = z.object({
  contractId: z.string(),
  status: z.enum(CONTRACT_STATUSES),
  contractCode: z.enum(CONTRACT_CODES).nullable(),
  nextDeadline: instant.nullable(),
  createdAt: instant,
  closedAt: instant.nullable().openapi({ description: 'closed contracts: when their record was written' }),
  quoteCount: z.number().int().nullable().openapi({ description: 'auctions only' }),
});
export const contractListSchema = z
  .object({
    contracts: z.array(listedContractSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'pass as `cursor` for the next page; null on the last' }),
  })
  .openapi('ContractList');

/** POST /contracts/:id/quotes: a bid at most the budget cap; a new quote replaces the bidder's earlier one. */
export const quoteBody = z
  .object({
    price: positiveAmountSchema,
    confidence: z.number().min(0).max(1).optional(),
    message: z.string().max(MAX_QUOTE_MESSAGE_LENGTH).optional(),
  })
  .strict()
  .openapi('QuoteRequest');

/** POST /contracts/:id/award: `quoteId` picks that quote; without it the best quote wins now. */
export const awardBody = z
  .object({ quoteId: z.string().min(1).max(200).optional() })
  .strict()
  .openapi('AwardRequest');

const verdictList = z.array(z.enum(VERDICTS)).min(1).max(10);

/** POST /contracts/:id/appeals: appeal a panel's tally (the Appeal Bond is held), or waive the appeal. */
export const appealBody = z
  .object({ waive: z.literal(true).optional().openapi({ description: 'waive the appeal instead' }) })
  .strict()
  .openapi('AppealRequest');

/** POST /contracts/:id/disputes: the Client's claimed verdicts, informational, in criterion order. */
export const disputeBody = z.object({ claims: verdictList.optional() }).strict().openapi('DisputeRequest');

/** POST /contracts/:id/revisions: the Client's change request: the criteria it finds unmet and a note for the Worker. */
export const revisionBody = z
  .object({
    criteria: z
      .array(z.number().int().min(0).max(9))
      .min(1)
      .max(10)
      .openapi({ description: 'indices of the criteria the Client finds unmet', example: [1] }),
    note: z.string().max(MAX_REVISION_NOTE_LENGTH).optional().openapi({
      description: 'to the Worker: party-only, never in the public view or the event log',
      example: 'The summary misses the Q3 figures.',
    }),
  })
  .strict()
  .openapi('RevisionRequest');

/** POST /contracts/:id/votes: a drawn BA's verdicts in criterion order (its baBond is taken with them). */
export const voteBody = z.object({ votes: verdictList }).strict().openapi('VoteRequest');

export const voteRowSchema = z
  .object({
    contractId: z.string(),
    backupAgent: address,
    criterionIndex: z.number(),
    vote: z.enum([...VERDICTS, 'no vote']),
    majorityOutcome: z.enum(VERDICTS),
    bondOutcome: z.enum(['returned', 'slashed', 'partially slashed']),
    reward: amount.openapi({ description: 'OCT minor units minted for this row' }),
  })
  .openapi('VoteRow');
export const contractVoteRowsSchema = z
  .object({ contractId: z.string(), rows: z.array(voteRowSchema) })
  .openapi('ContractVoteRows');
/** An agent's vote row names the milestone whose panel it sat on: one agent may sit on several of a contract's. */
export const agentVoteRowSchema = z
  .object({
    ...voteRowSchema.shape,
    milestoneIndex: z.number().int().min(0).nullable().openapi({
      description:
        'the milestone whose panel this row is of (0-based); null for a contract without milestones',
      example: 1,
    }),
  })
  .openapi('AgentVoteRow');
export const agentVoteRowsSchema = z
  .object({ address, rows: z.array(agentVoteRowSchema) })
  .openapi('AgentVoteRows');

export const eventsSchema = z
  .object({ contractId: z.string(), events: z.array(z.record(z.string(), z.unknown())) })
  .openapi('ContractEvents');

export const deliveryContentSchema = z
  .object({
    contractId: z.string(),
    uri: z.string(),
    sha256: z.string(),
    contentHash: z.string(),
    content: z.record(z.string(), z.unknown()),
    confidence: z.number().optional(),
  })
  .openapi('DeliveryContent');

export const keySchema = z
  .object({
    contractId: z.string(),
    kind: z.enum(['materials', 'delivery']),
    uri: z.string(),
    sha256: z.string(),
    key: z.string(),
  })
  .openapi('ContentKey');

const balance = z.object({ available: amount, held: amount });
export const balancesSchema = z
  .object({ address, balances: z.object({ USDC: balance, OCT: balance }) })
  .openapi('Balances');
export const eligibilitySchema = balancesSchema
  .extend({ locked: amount.optional(), released: amount.optional() })
  .openapi('EligibilityResult');
export const depositResultSchema = balancesSchema
  .extend({ deposited: amount, asset: z.literal('USDC') })
  .openapi('DepositResult');
export const healthSchema = z
  .object({ status: z.enum(['ok', 'unavailable']), temporal: z.enum(['up', 'down']) })
  .openapi('Health');

/** A JSON response entry for createRoute. */
export const json = <S>(schema: S, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** Response entries for createRoute: each error status the route can answer, in the §12 shape. */
export function errorResponses(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'bad input (the message names the fields)',
    401: 'unsigned, bad signature, expired, reused nonce, or wrong operator token',
    402: 'insufficient funds',
    403: 'wrong role',
    404: 'unknown contract',
    409: 'wrong state, lost race, or an Idempotency-Key still in progress',
    413: 'body too large',
    422: 'Idempotency-Key reused with another request',
    429: 'rate limited (see Retry-After)',
    503: 'Temporal unavailable',
  };
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: descriptions[s] ?? 'error', content: { 'application/json': { schema: errorSchema } } },
    ]),
  );
}

/**
 * The delivery body of api/ingest, documentable: its `confidence` accepts any JSON number (1e999
 * parses to Infinity and is then ignored), which zod can only say with a custom check.
 */
const anyJsonNumber = z
  .custom<number>((v) => typeof v === 'number', { message: 'must be a number' })
  .openapi({ type: 'number' });
export const deliveryRequestSchema = deliveryBodySchema
  .extend({ confidence: anyJsonNumber.optional() })
  .openapi('Delivery');
/** The Delivery body by reference, for a route that parses it itself (api/ingest): no validator. */
export const deliveryRequestRef = { $ref: '#/components/schemas/Delivery' };

// Mandates (docs/agents.md "Mandates"): what a delegate key may commit for its owner.
const MANDATE_ROLE_VALUES = ['client', 'worker', 'backup-agent'] as const;
export const MAX_MANDATE_COUNTERPARTIES = 100;

export const mandateLimitsBody = z
  .object({
    perContract: positiveAmountSchema,
    total: positiveAmountSchema,
    perDay: positiveAmountSchema,
    roles: z
      .array(z.enum(MANDATE_ROLE_VALUES))
      .min(1)
      .max(3)
      .optional()
      .openapi({
        description: 'the roles the delegate may act in (default: every role)',
        example: ['worker'],
      }),
    counterparties: z
      .array(address)
      .min(1)
      .max(MAX_MANDATE_COUNTERPARTIES)
      .optional()
      .openapi({
        description:
          'the only agents the delegate may contract with (default: anyone); with it, a delegate creates only direct awards to one of them',
        example: ['0x14791697260e4c9a71f18484c9f997b308e59325'],
      }),
  })
  .strict()
  .openapi('MandateLimits');

export const mandateBody = z
  .object({
    delegate: address.openapi({ description: 'the delegate key’s lowercase address' }),
    limits: mandateLimitsBody,
    expiresAt: z.iso.datetime({ offset: true }).openapi({
      description: 'when the mandate ends (RFC 3339), in the future',
      example: '2030-01-01T00:00:00Z',
    }),
  })
  .strict()
  .openapi('MandateRequest');

const mandateLimitsSchema = z.object({
  perContract: amount,
  total: amount,
  perDay: amount,
  roles: z.array(z.enum(MANDATE_ROLE_VALUES)).nullable(),
  counterparties: z.array(address).nullable(),
});

export const mandateSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: 'the mandate’s id', example: 'm-8f14e45fceea167a5a36dedd4bea2543' }),
    owner: address,
    delegate: address,
    limits: mandateLimitsSchema,
    expiresAt: instant,
    createdAt: instant,
    revokedAt: instant.nullable(),
    state: z.enum(['live', 'revoked', 'expired']).openapi({ example: 'live' }),
    committed: amount.openapi({ description: 'what the mandate’s open commitments hold now' }),
    committedLastDay: amount.openapi({
      description: 'what it committed in the last 24 hours, released or not',
    }),
    left: amount.openapi({
      description:
        'what it may still commit: min(total − committed, perDay − committedLastDay); 0 once revoked or expired',
    }),
  })
  .openapi('Mandate');

export const mandateListSchema = z.object({ mandates: z.array(mandateSchema) }).openapi('Mandates');
