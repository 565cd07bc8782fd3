// Fills the agent feed from the contracts' event logs, outside the workflow (it adds no history event):
// a contract is read (view + log, two queries, or its durable record once closed) and what is new
// since the last projection is written in one compare-and-set transaction, so any number of
// projectors (one per API process) write each entry once. A contract is looked at while it is hot
// (the API touches it on every message it sends), once its next deadline or reminder falls due, and
// in a slow sweep of every open contract that catches what happens without a message (a draw that
// waited for eligible agents, a restart of every process).
import type { ContractView } from '../../workflows/definitions';
import type { ContractEvent } from '../../workflows/rules/events';
import { panelVoting } from '../../workflows/rules/next-action';
import { projectContract } from './project';
import type { FeedStore } from '../../store/agent-feed';

export interface ContractSource {
  view(contractId: string): Promise<ContractView | undefined>;
  eventLog(contractId: string): Promise<ContractEvent[]>;
  /** The current panel's Backup Agents whose ballot is in (a third query, only while a panel votes). */
  ballotsCast(contractId: string): Promise<string[]>;
}

export interface ProjectorSettings {
  /** How often hot and due contracts are looked at. */
  intervalMs: number;
  /** How often every open contract is looked at. */
  sweepMs: number;
  /** How long a touched contract stays hot. */
  hotMs: number;
  reminderLeadMs: number;
}

export const DEFAULT_PROJECTOR: ProjectorSettings = {
  intervalMs: 500,
  sweepMs: 30_000,
  hotMs: 120_000,
  reminderLeadMs: 60 * 60_000,
};

export interface FeedProjector {
  /** Projects one contract now; the agents that got new entries. */
  sync(contractId: string): Promise<string[]>;
  /** Marks a contract as changed (the API, after each message it sent). */
  touch(contractId: string): Promise<void>;
  /** One pass over the hot and due contracts (and every open one when `all`). */
  pass(all?: boolean): Promise<void>;
  /** Runs passes on the settings' clock until stop(). */
  start(): { stop(): Promise<void> };
}

export function createFeedProjector(deps: {
  store: FeedStore;
  source: ContractSource;
  settings?: Partial<ProjectorSettings>;
  now?: () => number;
  /** Called with the agents that got entries (webhook delivery wakes up for them). */
  onAppended?: (agents: string[]) => Promise<void>;
  logError?: (err: unknown) => void;
}): FeedProjector {
  const { store, source } = deps;
  const settings = { ...DEFAULT_PROJECTOR, ...deps.settings };
  const now = deps.now ?? Date.now;
  const logError = deps.logError ?? ((err: unknown) => console.error('feed projection failed', err));

  async function sync(contractId: string): Promise<string[]> {
    const known = await store.projection(contractId);
    if (known?.closed) return [];
    const view = await source.view(contractId);
    if (view === undefined) return [];
    const events = await source.eventLog(contractId);
    const ballotsCast = panelVoting(view) ? await source.ballotsCast(contractId) : [];
    const from = known?.projected ?? 0;
    const at = now();
    const projection = projectContract({
      view,
      events,
      ballotsCast,
      from,
      now: at,
      reminderLeadMs: settings.reminderLeadMs,
    });
    const { committed, agents } = await store.commit({
      contractId,
      expected: from,
      projected: Math.max(from, events.length),
      ...projection,
    });
    if (committed && agents.length > 0) await deps.onAppended?.(agents);
    return agents;
  }

  async function syncAll(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      try {
        await sync(id);
      } catch (err) {
        logError(err);
      }
    }
  }

  async function pass(all = false): Promise<void> {
    await syncAll(await store.dueContracts(now(), 500));
    if (!all) return;
    for (let after: string | undefined; ;) {
      const page = await store.openContracts(200, after);
      await syncAll(page);
      if (page.length < 200) return;
      after = page[page.length - 1];
    }
  }

  return {
    sync,
    touch: (contractId) => store.touch(contractId, now() + settings.hotMs),
    pass,
    start() {
      let stopped = false;
      let lastSweep = 0;
      let wake: (() => void) | undefined;
      const loop = (async () => {
        while (!stopped) {
          const all = now() - lastSweep >= settings.sweepMs;
          if (all) lastSweep = now();
          await pass(all).catch(logError);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, settings.intervalMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      })();
      return {
        async stop() {
          stopped = true;
          wake?.();
          await loop;
        },
      };
    },
  };
}
