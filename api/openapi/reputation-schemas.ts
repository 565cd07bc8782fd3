// The outcome log's and reputation's wire shapes (docs/reputation.md), each field described here.
import { z } from '@hono/zod-openapi';
import { DIFFICULTY_LEVELS } from '../../workflows/rules/difficulty';
import { OUTCOME_ENDINGS, OUTCOME_ROLES } from '../../workflows/rules/outcomes';
import { VERDICTS } from '../../workflows/rules/verdicts';

const ADDRESS = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const OTHER = '0x14791697260e4c9a71f18484c9f997b308e59325';
const HASH = 'ab'.repeat(32);
const d = (description: string, example?: unknown) =>
  example === undefined ? { description } : { description, example };
const count = (what: string, example = 3) => z.number().int().openapi(d(what, example));
const minor = (what: string, example = '2500000') =>
  z.string().openapi(d(`${what}: USDC minor units (6 decimals)`, example));

export const outcomeRecordSchema = z
  .object({
    sequence: count('position in the log, from 1', 42),
    prevHash: z
      .string()
      .openapi(d('SHA-256 (hex) of the previous record’s canonical bytes; 64 zeros for the first', HASH)),
    hash: z
      .string()
      .openapi(d('SHA-256 (hex) of this record’s canonical bytes (docs/reputation.md §1)', HASH)),
    contractId: z.string().openapi(d('the contract that ended', 'c-k3v9x2m8q4w7z1a5b6n0p2r4t8')),
    milestoneIndex: z
      .number()
      .int()
      .nullable()
      .openapi(d('the milestone that ended (0-based); null for the whole contract', null)),
    role: z.enum(OUTCOME_ROLES).openapi(d('the party’s role', 'worker')),
    party: z.string().openapi(d('the party this record is about', ADDRESS)),
    counterparty: z
      .string()
      .nullable()
      .openapi(d('Worker ↔ Client; a Backup Agent’s is the Client; null when unmatched', OTHER)),
    amount: minor('paid to the Worker out of the escrow ("0" for a cancellation)'),
    criteriaTotal: count('criteria judged (0 for a cancellation)'),
    criteriaMet: count('criteria whose final outcome is met', 2),
    criteriaUnclear: count('criteria whose final outcome is unclear', 0),
    criteria: z
      .array(
        z.object({
          outcome: z.enum(VERDICTS).openapi(d('the final outcome', 'met')),
          score: z
            .number()
            .nullable()
            .openapi(d('the automatic verifier’s score (machine-checked criteria), else null', 85.7)),
        }),
      )
      .openapi(d('per criterion, in order')),
    ending: z.enum(OUTCOME_ENDINGS).openapi(d('how the contract ended', 'approved')),
    disputed: z.boolean().openapi(d('the Client disputed the delivery', false)),
    appealedBy: z.enum(['client', 'worker']).nullable().openapi(d('who appealed a panel’s tally', null)),
    revisionsRequested: count('change requests the Client made', 0),
    difficulty: z.enum(DIFFICULTY_LEVELS).openapi(d('Kinetix difficulty fixed at creation', 'standard')),
    votes: z
      .array(z.enum([...VERDICTS, 'no vote']))
      .nullable()
      .openapi(
        d('a Backup Agent’s vote per criterion (against criteria[i].outcome); null for the others', null),
      ),
    endedAt: z.string().openapi(d('when the ending was recorded (UTC)', '2030-01-01T04:00:00.000Z')),
  })
  .openapi('OutcomeRecord');

export const outcomesQuerySchema = z.object({
  after: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,14})$/, 'a sequence number')
    .optional()
    .openapi({
      param: { name: 'after', in: 'query' },
      description: 'records after this sequence (default 0)',
      example: '0',
    }),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,3}$/, '1 to 1000')
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: 'page size, 1 to 1000 (default 100)',
      example: '100',
    }),
});

export const outcomePageSchema = z
  .object({
    records: z.array(outcomeRecordSchema).openapi(d('in sequence order')),
    next: z.number().int().nullable().openapi(d('the `after` of the next page; null at the head', 142)),
  })
  .openapi('OutcomePage');

export const outcomeHeadSchema = z
  .object({
    sequence: count('the last record’s sequence (0 while the log is empty)', 142),
    hash: z.string().openapi(d('its hash (64 zeros while empty)', HASH)),
  })
  .openapi('OutcomeHead');

export const reputationQuerySchema = z.object({
  viewer: z
    .string()
    .optional()
    .openapi({
      param: { name: 'viewer', in: 'query' },
      description: 'whose trust to weigh from; default: the signed caller, else the operator’s trust anchors',
      example: OTHER,
    }),
});

export const reputationSchema = z
  .object({
    address: z.string().openapi(d('the agent', ADDRESS)),
    through: count('the log’s last sequence these figures include', 142),
    raw: z
      .object({
        worker: z
          .object({
            contracts: count('contracts it was the Worker of'),
            volume: minor('paid to it'),
            credit: z.number().openapi(d('Σ share of criteria credited × difficulty multiplier', 2.5)),
            withdrawals: count('contracts it withdrew from', 0),
            absences: count('deliveries it missed', 0),
            disputesLost: count('disputed contracts not fully met', 0),
          })
          .openapi(d('as a Worker')),
        client: z
          .object({
            contracts: count('contracts it was the Client of'),
            volume: minor('paid out to Workers'),
            reviewsTimedOut: count('reviews it left to time out', 0),
            disputesRaised: count('disputes it raised', 1),
            disputesUpheld: count('of those, disputes the final outcome agreed with', 1),
          })
          .openapi(d('as a Client')),
        backupAgent: z
          .object({
            seats: count('panel seats it held'),
            votesCast: count('criterion votes it cast', 9),
            votesCoherent: count('of those, votes matching the final outcome', 8),
            missedVotes: count('seats where it cast no vote', 0),
          })
          .openapi(d('as a Backup Agent')),
        counterparties: count('distinct counterparties over every role', 4),
      })
      .openapi(d('raw figures: a pure function of the outcome log; a ring of keys can inflate them')),
    trust: z
      .object({
        score: z
          .number()
          .nullable()
          .openapi(
            d(
              'personalized PageRank × graph size from the viewer (1 = an average agent’s share) × the share of its paid record that traces back to the viewer’s money; null without a viewer',
              1.84,
            ),
          ),
        from: z.enum(['viewer', 'anchors']).nullable().openapi(d('where the walk restarts', 'viewer')),
        viewer: z.string().nullable().openapi(d('the viewer, when it is one agent', OTHER)),
        reason: z.string().nullable().openapi(d('why there is no score', null)),
      })
      .openapi(d('trust-weighted from the viewer (docs/reputation.md §4)')),
  })
  .openapi('Reputation');
