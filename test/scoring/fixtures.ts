// Builders for evidence records and the worked examples (docs/scoring.md §4) as checks.
import type { ConsistencyCheck, QualityCheck, TimeBoundCheck } from '../../workflows/rules/machine-checks';
import type { EvidenceRecord } from '../../workflows/rules/scoring/evidence';

let serial = 0;

export function moltbookPost(timestamp: string, extra: Partial<EvidenceRecord> = {}): EvidenceRecord {
  serial++;
  return {
    platform: 'moltbook',
    actionType: 'post',
    timestamp,
    actionUrl: `https://moltbook.example/posts/${serial}`,
    contentHash: `hash-${serial}`,
    ...extra,
  };
}

export function telegramReply(
  extra: Partial<EvidenceRecord> = {},
  timestamp = '2025-02-01T10:00:00Z',
): EvidenceRecord {
  serial++;
  return {
    platform: 'telegram',
    actionType: 'support_response',
    timestamp,
    messageId: `m${serial}`,
    chatId: 'chat-1',
    ...extra,
  };
}

/** Seed: "Example 1: Daily Moltbook Posts". */
export const dailyMoltbookCheck: ConsistencyCheck = {
  type: 'consistency',
  frequency: 'daily',
  durationDays: 7,
  platform: 'moltbook',
  actionType: 'post',
  minimumActions: 7,
  gracePeriodHours: 24,
  contentRequirements: { minLength: 100, requiredTags: ['health'] },
};

/** The worked example's "Actual behavior", days counted from 2025-02-01 (UTC). Day 4 is missed. */
export const dailyMoltbookEvidence: EvidenceRecord[] = [
  moltbookPost('2025-02-01T09:00:00Z', { contentLength: 100, contentTags: ['health'] }),
  moltbookPost('2025-02-02T10:00:00Z', { contentLength: 150, contentTags: ['health'] }),
  moltbookPost('2025-02-03T23:00:00Z', { contentLength: 80, contentTags: ['health'] }),
  moltbookPost('2025-02-05T08:00:00Z', { contentLength: 200, contentTags: ['health'] }),
  moltbookPost('2025-02-06T09:00:00Z', { contentLength: 120, contentTags: ['health'] }),
  moltbookPost('2025-02-07T09:00:00Z', { contentLength: 110, contentTags: ['health'] }),
];

/** Seed: "Example 1: Telegram Support Bot". */
export const supportBotCheck: QualityCheck = {
  type: 'quality',
  platform: 'telegram',
  actionType: 'support_response',
  qualityMetrics: { responseTimeMinutes: 30, minimumLength: 150, satisfactionThreshold: 4.0 },
  minimumSamples: 20,
  durationDays: 30,
};

/** 20 interactions: 18 answered within 30 min, 17 over 150 characters, ratings averaging 4.2. */
export const supportBotEvidence: EvidenceRecord[] = Array.from({ length: 20 }, (_, i) =>
  telegramReply({
    responseTimeMinutes: i < 18 ? 12 : 45,
    contentLength: i < 17 ? 300 : 90,
    satisfactionRating: i < 4 ? 5 : 4,
  }),
);

/** Seed: "Example 1: Three-Milestone Project". */
export const threeMilestoneCheck: TimeBoundCheck = {
  type: 'time_bound',
  milestones: [
    { milestoneId: 'design', deadline: '2025-02-05T17:00:00Z', gracePeriodHours: 6 },
    { milestoneId: 'prototype', deadline: '2025-02-10T17:00:00Z', gracePeriodHours: 6 },
    { milestoneId: 'final', deadline: '2025-02-15T17:00:00Z', gracePeriodHours: 0 },
  ],
  penaltyPerLateHour: 2,
};

/** Design Feb 5 3pm, prototype Feb 10 11pm, final Feb 15 5pm (UTC). */
export const threeMilestoneEvidence: EvidenceRecord[] = [
  { milestoneId: 'design', timestamp: '2025-02-05T15:00:00Z' },
  { milestoneId: 'prototype', timestamp: '2025-02-10T23:00:00Z' },
  { milestoneId: 'final', timestamp: '2025-02-15T17:00:00Z' },
];

export const LATER = Date.parse('2025-03-31T00:00:00Z');
