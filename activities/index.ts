// Every activity the contract worker runs, composed from their factories.
import { createWebhookActivities } from './webhook-activities';
import type { FeedStore } from '../store/agent-feed';
import type { BucketRule } from '../store/rate-limit';
import { createDrawActivities } from './draw-activities';
import type { Ledger } from '../store/ledger';
import { createLedgerActivities } from './ledger-activities';
import { createOperatorActivities } from './operator-activities';
import { createPanelActivities } from './panel-activities';
import type { ContractRecordStore } from '../store/records';
import { createRecordActivities } from './record-activities';
import { createScoringActivities } from './scoring-activities';
import { createOutcomeActivities } from './outcome-activities';
import type { OutcomeLog } from '../store/outcomes';

export interface ActivityDeps {
  ledger: Ledger;
  /** Where terminal contracts' records go (docs/records.md). */
  records: ContractRecordStore;
  /** The public outcome log beside the records (docs/reputation.md). */
  outcomes: OutcomeLog;
  /** The agent feed, for webhook delivery (docs/agents.md); without it the worker delivers no webhook. */
  feed?: { store: FeedStore; allowPrivate: boolean; hostRate?: BucketRule };
}

export function createActivities({ ledger, records, outcomes, feed }: ActivityDeps) {
  return {
    ...(feed === undefined
      ? {}
      : createWebhookActivities({
          feed: feed.store,
          allowPrivate: feed.allowPrivate,
          ...(feed.hostRate === undefined ? {} : { hostRate: feed.hostRate }),
        })),
    ...createLedgerActivities({ ledger }),
    ...createPanelActivities({ ledger }),
    ...createScoringActivities(),
    ...createRecordActivities({ records }),
    ...createOutcomeActivities({ outcomes }),
    ...createDrawActivities(),
    ...createOperatorActivities({ ledger, records }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
