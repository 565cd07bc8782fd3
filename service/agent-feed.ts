// The agent feed beside an API process: its store, the projector that fills it from the contracts'
// logs (running on its own clock in this process), and the wake-up of webhook deliveries when an
// agent's feed grows. Every API process runs one; they share the store and write each entry once.
import type { Client } from '@temporalio/client';
import {
  createFeedProjector,
  readModelSource,
  type FeedProjector,
  type ProjectorSettings,
} from '../store/agent-feed/projector';
import type { FeedStore } from '../store/agent-feed';
import type { Resolve } from '../webhooks/target';
import type { ContractRecordStore } from '../store/records';
import type { AgentFeedDeps } from '../api/deps';
import { webhookWorkflows } from '../webhooks/delivery-workflows';

export interface AgentFeedService {
  deps: AgentFeedDeps;
  projector: FeedProjector;
  stop(): Promise<void>;
}

export function startAgentFeed(options: {
  client: Client;
  taskQueue: string;
  records: ContractRecordStore;
  store: FeedStore;
  webhookAllowPrivate: boolean;
  projector?: Partial<ProjectorSettings>;
  resolve?: Resolve;
  webhookMaxRetryIntervalMs?: number;
}): AgentFeedService {
  const { client, taskQueue, records, store } = options;
  const webhooks = webhookWorkflows({
    client,
    taskQueue,
    store,
    ...(options.webhookMaxRetryIntervalMs === undefined
      ? {}
      : { maxRetryIntervalMs: options.webhookMaxRetryIntervalMs }),
  });
  const projector = createFeedProjector({
    store,
    source: readModelSource(records),
    ...(options.projector === undefined ? {} : { settings: options.projector }),
    onAppended: (agents) => webhooks.notify(agents),
  });
  const running = projector.start();
  return {
    deps: {
      store,
      touch: (contractId) => projector.touch(contractId),
      webhookAllowPrivate: options.webhookAllowPrivate,
      ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
      ...(options.webhookMaxRetryIntervalMs === undefined
        ? {}
        : { webhookMaxRetryIntervalMs: options.webhookMaxRetryIntervalMs }),
    },
    projector,
    stop: () => running.stop(),
  };
}
