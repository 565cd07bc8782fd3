// A content-free event log of one contract's life, built with the real constructors and rules.
import { drawPanel } from '../../workflows/rules/draw';
import { AUTO_VERIFIER_AGENT_ID, type ContractEvent } from '../../workflows/rules/events';
import {
  agentVerifiedEvent,
  contractCancelledEvent,
  contractCreatedEvent,
  contractDeliveredEvent,
  contractDisputedEvent,
  contractMatchedEvent,
  contractResolvedEvent,
  contractSettledEvent,
  contractWithdrawnEvent,
  messageRejectedEvent,
  panelDrawnEvent,
  quoteReceivedEvent,
  changeRequestedEvent,
} from '../../workflows/rules/event-constructors';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { cancellationFor, settlementFor } from '../../workflows/rules/settlement';
import type { Verdict } from '../../workflows/rules/verdicts';
import { CLIENT, HOUR, WORKER } from '../support/fixtures';

export const BAS = [
  `0x${'b1'.repeat(20)}`,
  `0x${'b2'.repeat(20)}`,
  `0x${'b3'.repeat(20)}`,
  `0x${'b4'.repeat(20)}`,
] as const;
export const DELIVERY_HASH = 'd'.repeat(64);
export const CONTENT_HASH = 'e'.repeat(64);
export const CONTRACT_ID = 'ct_0001';

/** Things that must never appear in an event. */
export const SECRETS = {
  task: 'Write seven health tips for the clinic newsletter',
  criteria: ['Each tip cites a source', 'Post daily on Moltbook for 7 days', 'Friendly tone'],
  deliveryKey: 'delivery-key-5d1f0c',
  materialsKey: 'materials-key-77aa',
  content: 'Tip 1: drink water before coffee',
  price: '1234567',
};

const t = (h: number) => Date.parse('2025-02-01T00:00:00Z') + h * HOUR;

export function auctionLifecycle(criteriaMet: Verdict[]): ContractEvent[] {
  const ctx = (h: number, actor: ContractEvent['actor']) => ({ contractId: CONTRACT_ID, at: t(h), actor });
  const criteria = [
    SECRETS.criteria[0]!,
    {
      text: SECRETS.criteria[1]!,
      check: {
        type: 'consistency' as const,
        frequency: 'daily' as const,
        durationDays: 7,
        platform: 'moltbook' as const,
        actionType: 'post' as const,
        minimumActions: 7,
        contentRequirements: { requiredTags: ['health'] },
      },
    },
    { text: SECRETS.criteria[2]! },
  ];
  const escrow = 5_000_000n;
  const price = BigInt(SECRETS.price);
  const draw = drawPanel({
    contractId: CONTRACT_ID,
    deliveryHash: DELIVERY_HASH,
    panelSize: 3,
    round: 'panel',
    registry: [...BAS, CLIENT].map((address, i) => ({ address, stake: 100_000_000n * BigInt(i + 1) })),
    exclude: [CLIENT, WORKER],
    secret: 'ab'.repeat(32),
  });
  const settlement = settlementFor(
    { escrow: price, workerStake: 123_456n, disputeBond: null },
    criteriaMet,
    DEFAULT_PARAMS,
  );
  return [
    contractCreatedEvent(ctx(0, CLIENT), {
      contractCode: 'AOS',
      contractType: 'auction',
      awardMethod: 'open',
      verificationMode: 'standard',
      amount: escrow,
      acceptanceCriteria: criteria,
      deadlines: { match: t(24), withdrawal: t(48), delivery: t(240), review: null },
      materialsSha256: 'F'.repeat(64),
    }),
    quoteReceivedEvent(ctx(1, WORKER), { quoteId: 'q1', confidence: 0.8 }),
    quoteReceivedEvent(ctx(2, BAS[0]), { quoteId: 'q2' }),
    messageRejectedEvent(ctx(3, CLIENT), { message: 'quote', code: 'own_contract' }),
    contractMatchedEvent(ctx(24, 'system'), {
      worker: WORKER,
      via: 'best-quote',
      quoteId: 'q1',
      price,
      workerStake: 123_456n,
      refundedToClient: escrow - price,
    }),
    contractDeliveredEvent(ctx(200, WORKER), {
      deliverySha256: DELIVERY_HASH,
      contentSha256: CONTENT_HASH,
      evidenceCriterionIndexes: [1],
    }),
    agentVerifiedEvent(ctx(200, 'auto-verifier'), {
      agentId: AUTO_VERIFIER_AGENT_ID,
      role: 'auto-verifier',
      deliverySha256: DELIVERY_HASH,
      verdicts: [undefined, 'met', undefined],
    }),
    panelDrawnEvent(ctx(200, 'system'), draw, t(272)),
    ...draw.panel.map((ba, i) =>
      agentVerifiedEvent(ctx(210 + i, ba), {
        agentId: ba,
        role: 'backup-agent',
        deliverySha256: DELIVERY_HASH,
        verdicts: criteriaMet,
        confidence: 0.9,
      }),
    ),
    contractResolvedEvent(ctx(213, 'system'), { source: 'panel-tally', criteriaMet }),
    contractSettledEvent(ctx(213, 'system'), settlement),
  ];
}

export function otherEvents(): ContractEvent[] {
  const ctx = { contractId: 'ct_0002', at: '2025-02-02T00:00:00+02:00', actor: WORKER };
  return [
    contractWithdrawnEvent(ctx),
    contractCancelledEvent(
      { ...ctx, actor: 'system' },
      {
        ...cancellationFor('withdrawn', { escrow: 1_000_000n, workerStake: 100_000n }, DEFAULT_PARAMS),
        reason: 'withdrawn',
      },
    ),
    contractDisputedEvent({ ...ctx, actor: CLIENT }, { disputeBond: 50_000n }),
    agentVerifiedEvent(
      { ...ctx, actor: CLIENT },
      { agentId: CLIENT, role: 'client', deliverySha256: DELIVERY_HASH, verdicts: ['met', 'unclear'] },
    ),
    messageRejectedEvent(ctx, { message: 'deliver', code: 'invalid_field', field: 'evidence.0.records' }),
    changeRequestedEvent(
      { ...ctx, actor: CLIENT },
      { client: CLIENT, deliverySha256: DELIVERY_HASH, criteria: [2, 0] },
    ),
    messageRejectedEvent(
      { ...ctx, actor: CLIENT },
      { message: 'requestChanges', code: 'revisions_exhausted' },
    ),
  ];
}
