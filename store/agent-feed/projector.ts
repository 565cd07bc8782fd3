// Fills the agent feed from the contracts' read model (docs/records.md), outside the workflow: a
// contract's row (view, log and ballots, as its workflow last wrote them) is read and what is new since
// the last projection is written in one compare-and-set transaction, so any number of projectors (one per
// API process) write each entry once. No look queries or wakes a workflow: a look is two database reads.
// A contract is looked at while it is hot (the API touches it on every message it sends), once its next
// deadline or reminder falls due, and in a slow sweep of every open contract that catches what happens
// without a message (a timer's transition, a draw that waited for eligible agents, a restart). Looks are
// paced all the same: a hot contract that shows nothing new is looked at half as often each time (from
// `intervalMs` up to `hotMaxGapMs`), its turn kept in the store so that one projector of all takes each
// look, and the sweep looks at no more than `sweepBatch` contracts a pass.
import type { ContractSnapshot } from '../../workflows/definitions';
import { panelVoting } from '../../workflows/rules/next-action';
import { projectContract } from './project';
import type { FeedStore } from '.';
import type { ContractRecordStore } from '../records';

export interface ContractSource {
  /** The view, the event log and who of the current panel has voted; undefined when none exists. */
  snapshot(contractId: string): Promise<ContractSnapshot | undefined>;
}

/** The projector's source: the contract read model. */
export function readModelSource(records: Pick<ContractRecordStore, 'get'>): ContractSource {
  return {
    async snapshot(contractId) {
      const record = await records.get(contractId);
      return record && { view: record.view, events: record.events, ballotsCast: record.ballotsCast };
    },
  };
}

export interface ProjectorSettings {
  /** How often the projector runs a pass; a hot contract that just changed is looked at this often. */
  intervalMs: number;
  /** The longest gap between two looks at a hot contract that shows nothing new. */
  hotMaxGapMs: number;
  /** How often a sweep of every open contract starts. */
  sweepMs: number;
  /** The most open contracts one pass of the sweep looks at (a sweep of more spans several passes). */
  sweepBatch: number;
  /** How long a touched contract stays hot. */
  hotMs: number;
  reminderLeadMs: number;
}

export const DEFAULT_PROJECTOR: ProjectorSettings = {
  intervalMs: 500,
  hotMaxGapMs: 8_000,
  sweepMs: 30_000,
  sweepBatch: 10,
  hotMs: 120_000,
  reminderLeadMs: 60 * 60_000,
};

/** The contracts a pass may look at at once: beyond it, the next pass takes the rest. */
const DUE_PAGE = 5_000;

export interface FeedProjector {
  /** Projects one contract now; the agents that got new entries. */
  sync(contractId: string): Promise<string[]>;
  /** Marks a contract as changed (the API, after each message it sent). */
  touch(contractId: string): Promise<void>;
  /** One pass: the hot and due contracts whose turn it is, and the running sweep's next batch. */
  pass(): Promise<void>;
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
  const pace = {
    shortestMs: settings.intervalMs,
    longestMs: Math.max(settings.hotMaxGapMs, settings.intervalMs),
  };

  async function sync(contractId: string): Promise<string[]> {
    return (await look(contractId)).agents;
  }

  async function look(contractId: string): Promise<{ agents: string[]; changed: boolean }> {
    const known = await store.projection(contractId);
    if (known?.closed) return { agents: [], changed: false };
    const snapshot = await source.snapshot(contractId);
    if (snapshot === undefined) return { agents: [], changed: false };
    const { view, events } = snapshot;
    const ballotsCast = panelVoting(view) ? snapshot.ballotsCast : [];
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
    return { agents, changed: agents.length > 0 || events.length > from };
  }

  async function lookLogged(contractId: string): Promise<boolean> {
    try {
      return (await look(contractId)).changed;
    } catch (err) {
      logError(err);
      return false;
    }
  }

  /**
   * Looks at a contract if its turn has come, and sets its next turn: soon after a change, later and later
   * while it shows nothing new. The turn is kept in the store, so of all the projectors (one per API
   * process) one takes each look.
   */
  async function lookInTurn(contractId: string): Promise<void> {
    const claim = await store.claimLook(contractId, now(), pace);
    if (claim === undefined) return;
    if (await lookLogged(contractId)) await store.lookChanged(contractId, now(), settings.intervalMs);
  }

  /** The hot and due contracts whose turn it is. */
  async function lookAtDue(): Promise<void> {
    for (const id of await store.dueContracts(now(), DUE_PAGE)) await lookInTurn(id);
  }

  /** Where the running sweep stands: the last contract id it looked at, or none when it is done. */
  let sweep: { after: string } | null = null;
  let lastSweepStart = Number.NEGATIVE_INFINITY;

  async function sweepStep(after: string): Promise<void> {
    const page = await store.openContracts(settings.sweepBatch, after);
    for (const id of page) await lookInTurn(id);
    const last = page[page.length - 1];
    sweep = page.length < settings.sweepBatch || last === undefined ? null : { after: last };
  }

  async function pass(): Promise<void> {
    await lookAtDue();
    if (sweep === null && now() - lastSweepStart >= settings.sweepMs) {
      lastSweepStart = now();
      sweep = { after: '' };
    }
    if (sweep !== null) await sweepStep(sweep.after);
  }

  return {
    sync,
    touch: (contractId) => store.touch(contractId, now() + settings.hotMs),
    pass,
    start() {
      let stopped = false;
      let wake: (() => void) | undefined;
      const loop = (async () => {
        while (!stopped) {
          await pass().catch(logError);
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
