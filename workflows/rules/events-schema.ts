// JSON Schema (draft 2020-12) of the content-free contract events of ./events. Every object is
// closed (`additionalProperties: false`), so an event carrying anything else — content, a key, a
// price on a quote — fails validation. `agentVerified` and `successCriteria` follow the agent.verified event shape (docs/scoring.md §6).
import { CANONICAL_ADDRESS_RE } from './address';
import { CONTRACT_MESSAGES } from './message-names';
import { CANONICAL_SHA256_RE } from './sha256';
import { AWARD_METHODS, CONTRACT_CODES, CONTRACT_TYPES, VERIFICATION_MODES } from './contract-kinds';
import { CANCELLATION_REASONS, SETTLEMENT_TIERS, cancelledStatus, settledStatus } from './status';

const iso = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' } as const;
const address = { type: 'string', pattern: CANONICAL_ADDRESS_RE.source } as const;
const amount = { type: 'string', pattern: '^(0|[1-9][0-9]{0,17})$' } as const;
const sha256 = { type: 'string', pattern: CANONICAL_SHA256_RE.source } as const;
const key = { type: 'string', pattern: '^c([1-9]|10)$' } as const;
const keys = { type: 'array', items: key, uniqueItems: true, maxItems: 10 } as const;
const confidence = { type: 'number', minimum: 0, maximum: 1 } as const;
const addresses = { type: 'array', items: address, uniqueItems: true } as const;

const envelope = {
  contractId: { type: 'string', minLength: 1, maxLength: 200 },
  at: iso,
  actor: { anyOf: [address, { enum: ['system', 'auto-verifier', 'operator'] }] },
} as const;
const envelopeRequired = ['type', 'contractId', 'at', 'actor'] as const;

function eventDef(type: string, properties: Record<string, unknown>, required: readonly string[]) {
  return {
    type: 'object',
    additionalProperties: false,
    required: [...envelopeRequired, ...required],
    properties: { type: { const: type }, ...envelope, ...properties },
  } as const;
}

const holdSplits = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['hold', 'amount', 'parts'],
    properties: {
      hold: { enum: ['escrow', 'workerStake', 'disputeBond'] },
      amount,
      parts: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['role', 'amount'],
          properties: { role: { enum: ['client', 'worker', 'treasury'] }, amount },
        },
      },
    },
  },
} as const;

export const CONTRACT_EVENT_SCHEMA_ID = 'https://opencontract.local/schemas/contract-event.json';

export const contractEventJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: CONTRACT_EVENT_SCHEMA_ID,
  title: 'OpenContract content-free contract event',
  oneOf: [
    { $ref: '#/$defs/contractCreated' },
    { $ref: '#/$defs/quoteReceived' },
    { $ref: '#/$defs/contractMatched' },
    { $ref: '#/$defs/contractWithdrawn' },
    { $ref: '#/$defs/contractDelivered' },
    { $ref: '#/$defs/agentVerified' },
    { $ref: '#/$defs/contractDisputed' },
    { $ref: '#/$defs/contractAppealed' },
    { $ref: '#/$defs/contractAppealWaived' },
    { $ref: '#/$defs/panelDrawn' },
    { $ref: '#/$defs/panelVoided' },
    { $ref: '#/$defs/contractResolved' },
    { $ref: '#/$defs/contractSettled' },
    { $ref: '#/$defs/milestoneSettled' },
    { $ref: '#/$defs/contractCancelled' },
    { $ref: '#/$defs/messageRejected' },
    { $ref: '#/$defs/needsOperator' },
    { $ref: '#/$defs/operatorResolved' },
  ],
  $defs: {
    contractCreated: eventDef(
      'contract.created',
      {
        contractCode: { enum: CONTRACT_CODES },
        contractType: { enum: CONTRACT_TYPES },
        awardMethod: { enum: AWARD_METHODS },
        verificationMode: { enum: VERIFICATION_MODES },
        worker: address,
        amount,
        criteria: { ...keys, minItems: 1 },
        checkedCriteria: keys,
        deadlines: {
          type: 'object',
          additionalProperties: false,
          required: ['match', 'withdrawal', 'delivery'],
          properties: { match: iso, withdrawal: iso, delivery: iso, review: iso },
        },
        materialsSha256: sha256,
        drawCommitment: sha256,
      },
      [
        'contractCode',
        'contractType',
        'awardMethod',
        'verificationMode',
        'amount',
        'criteria',
        'checkedCriteria',
        'deadlines',
      ],
    ),
    quoteReceived: eventDef(
      'contract.quote-received',
      { quoteId: { type: 'string', minLength: 1, maxLength: 200 }, confidence },
      ['quoteId'],
    ),
    contractMatched: eventDef(
      'contract.matched',
      {
        worker: address,
        via: { enum: ['accept', 'best-quote', 'owner-pick'] },
        quoteId: { type: 'string', minLength: 1, maxLength: 200 },
        price: amount,
        workerStake: amount,
        refundedToClient: amount,
      },
      ['worker', 'via', 'price', 'workerStake'],
    ),
    contractWithdrawn: eventDef('contract.withdrawn', {}, []),
    contractDelivered: eventDef(
      'contract.delivered',
      { deliverySha256: sha256, contentSha256: sha256, evidenceCriteria: keys },
      ['deliverySha256', 'contentSha256', 'evidenceCriteria'],
    ),
    // the agent.verified event shape: agentVerified, plus the event envelope and the verifier's role.
    agentVerified: eventDef(
      'agent.verified',
      {
        agentId: { type: 'string', minLength: 3, maxLength: 256 },
        target: { type: 'string', minLength: 1 },
        verdict: { enum: ['pass', 'fail', 'revise'] },
        criteria: keys,
        confidence,
        role: { enum: ['backup-agent', 'client', 'auto-verifier', 'trusted-arbiter'] },
      },
      ['agentId', 'target', 'verdict', 'criteria', 'role'],
    ),
    contractDisputed: eventDef('contract.disputed', { disputeBond: amount }, ['disputeBond']),
    contractAppealed: eventDef(
      'contract.appealed',
      { party: { enum: ['client', 'worker'] }, appealBond: amount },
      ['party', 'appealBond'],
    ),
    contractAppealWaived: eventDef('contract.appeal-waived', { party: { enum: ['client', 'worker'] } }, [
      'party',
    ]),
    panelVoided: eventDef('contract.panel-voided', { panel: addresses, silent: addresses }, [
      'panel',
      'silent',
    ]),
    panelDrawn: eventDef(
      'contract.panel-drawn',
      {
        deliverySha256: sha256,
        round: { enum: ['panel', 'appeal'] },
        secret: sha256,
        seed: sha256,
        panelSize: { type: 'integer', minimum: 1 },
        candidates: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['address', 'stake'],
            properties: { address, stake: amount },
          },
        },
        panel: addresses,
        votingDeadline: iso,
      },
      ['deliverySha256', 'round', 'seed', 'panelSize', 'candidates', 'panel', 'votingDeadline'],
    ),
    // the agent.verified event shape: terminate decision with successCriteria.
    contractResolved: eventDef(
      'contract.resolved',
      {
        decision: { const: 'terminate' },
        source: { enum: ['client-approval', 'review-timeout', 'panel-tally', 'trusted-arbiter'] },
        verdict: { enum: ['pass', 'fail', 'revise'] },
        successCriteria: {
          type: 'array',
          minItems: 1,
          maxItems: 10,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['key', 'met'],
            properties: { key, met: { type: 'boolean' } },
          },
        },
        unclear: keys,
      },
      ['decision', 'source', 'verdict', 'successCriteria', 'unclear'],
    ),
    contractSettled: eventDef(
      'contract.settled',
      {
        status: { enum: SETTLEMENT_TIERS.map(settledStatus) },
        tier: { enum: SETTLEMENT_TIERS },
        payment: amount,
        holds: holdSplits,
      },
      ['status', 'tier', 'payment', 'holds'],
    ),
    milestoneSettled: eventDef(
      'contract.milestone-settled',
      {
        milestone: { type: 'integer', minimum: 0, maximum: 9 },
        status: { enum: [...SETTLEMENT_TIERS.map(settledStatus), cancelledStatus('absent')] },
        payment: amount,
        holds: holdSplits,
      },
      ['milestone', 'status', 'payment', 'holds'],
    ),
    contractCancelled: eventDef(
      'contract.cancelled',
      {
        status: { enum: CANCELLATION_REASONS.map(cancelledStatus) },
        reason: { enum: CANCELLATION_REASONS },
        holds: holdSplits,
      },
      ['status', 'reason', 'holds'],
    ),
    messageRejected: eventDef(
      'contract.message-rejected',
      {
        message: { enum: CONTRACT_MESSAGES },
        code: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,63}$' },
        field: { type: 'string', pattern: '^[A-Za-z0-9_.]{1,100}$' },
      },
      ['message', 'code'],
    ),
    needsOperator: eventDef(
      'contract.needs-operator',
      {
        step: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,63}$' },
        failureType: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
      },
      ['step', 'failureType'],
    ),
    operatorResolved: eventDef('contract.operator-resolved', { action: { enum: ['retry', 'release'] } }, [
      'action',
    ]),
  },
} as const;
