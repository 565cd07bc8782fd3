// What every reference agent shares: a process that sleeps until its feed says something happened,
// then looks at its contracts and does what each one's `nextAction` asks. Deciding from the listing
// (not from the entry that woke it) is what makes a restart safe: a step missed while the process
// was down is still the contract's next action when it comes back, and a step done is no longer.
// Each step is sent with an Idempotency-Key of its own (contract + action), so a step whose answer
// was lost to a crash is answered again, never done twice. The feed cursor is kept in a state file.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentApiError, type AgentClient, type AgentContract } from '../sdk/typescript';

export type Log = (event: string, fields?: Record<string, unknown>) => void;

/** One JSON line per thing the agent does, on stdout. */
export function jsonLog(role: string, address: string, write = (line: string) => console.log(line)): Log {
  return (event, fields = {}) =>
    write(JSON.stringify({ at: new Date().toISOString(), role, address, event, ...fields }));
}

export interface AgentState {
  /** The last feed entry seen. */
  cursor: string;
  /**
   * Steps done (`action:contractId`) that the listing may still show as due: a vote stays sealed
   * until the tally, so `vote` remains the next action of a Backup Agent that has voted.
   */
  done: string[];
}

function loadState(path: string): AgentState {
  if (!existsSync(path)) return { cursor: '0', done: [] };
  const state = JSON.parse(readFileSync(path, 'utf8')) as Partial<AgentState>;
  return { cursor: state.cursor ?? '0', done: state.done ?? [] };
}

function saveState(path: string, state: AgentState): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(state));
  renameSync(`${path}.tmp`, path);
}

/**
 * Runs `call` until it answers; a network failure (the API restarting, a dropped keep-alive
 * connection) is retried every `delayMs`, a refusal of the API is thrown.
 */
export async function untilReached<T>(call: () => Promise<T>, log: Log, delayMs = 1000): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (err instanceof AgentApiError) throw err;
      log('api-unreachable', { message: err instanceof Error ? err.message : String(err) });
      await sleep(delayMs);
    }
  }
}

/** Every open contract of the agent in `role` that has a next action. */
export async function dueContracts(
  agent: AgentClient,
  role: AgentContract['role'],
): Promise<AgentContract[]> {
  const due: AgentContract[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await agent.myContracts({ role, open: true, limit: 50, ...(cursor ? { cursor } : {}) });
    due.push(...page.contracts.filter((c) => c.nextAction !== null));
    if (page.nextCursor === null) return due;
    cursor = page.nextCursor;
  }
}

/** The Idempotency-Key of one step: the same step after a restart gets the first answer back. */
export function stepKey(role: string, action: string, contractId: string): { idempotencyKey: string } {
  return { idempotencyKey: `reference-${role}:${action}:${contractId}` };
}

/** Runs `act` for each due contract; a refusal (a deadline passed, a race lost) is logged, not fatal. */
export async function actOnEach(
  contracts: readonly AgentContract[],
  log: Log,
  act: (c: AgentContract) => Promise<void>,
): Promise<void> {
  for (const c of contracts) {
    try {
      await act(c);
    } catch (err) {
      if (!(err instanceof AgentApiError)) throw err;
      log('refused', {
        contractId: c.contractId,
        action: c.nextAction,
        status: err.status,
        code: err.code,
        message: err.message,
      });
    }
  }
}

/** The steps done, kept in the state file (a repeat after a crash is answered by its Idempotency-Key). */
export interface DoneSteps {
  has(action: string, contractId: string): boolean;
  add(action: string, contractId: string): void;
}

export interface RunOptions {
  agent: AgentClient;
  log: Log;
  statePath: string;
  /** Looks at the agent's contracts and does what is due (runs once at a time). */
  step: (done: DoneSteps) => Promise<void>;
  /** Also looks every so often without a feed entry (a deadline can end an action silently). */
  rescanMs?: number;
  signal?: AbortSignal;
}

/** Runs until `signal` aborts: a step at start, then one after each feed entry and every `rescanMs`. */
export async function runAgent(options: RunOptions): Promise<void> {
  const { agent, log, statePath, signal } = options;
  const state = loadState(statePath);
  const done: DoneSteps = {
    has: (action, contractId) => state.done.includes(`${action}:${contractId}`),
    add: (action, contractId) => {
      state.done.push(`${action}:${contractId}`);
      // Only open contracts' steps matter: the list stays short for an agent that keeps running.
      if (state.done.length > 1000) state.done.splice(0, state.done.length - 1000);
      saveState(statePath, state);
    },
  };
  let running: Promise<void> | undefined;
  let again = false;
  const step = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await options.step(done);
        } catch (err) {
          log('step-failed', { message: err instanceof Error ? err.message : String(err) });
        }
      } while (again);
    })();
    try {
      await running;
    } finally {
      running = undefined;
    }
  };
  const timer = setInterval(() => void step(), options.rescanMs ?? 60_000);
  try {
    log('started', { cursor: state.cursor });
    await step();
    while (!signal?.aborted) {
      try {
        for await (const entry of agent.streamFeed({
          lastEventId: state.cursor,
          ...(signal ? { signal } : {}),
        })) {
          log('feed', {
            id: entry.id,
            type: entry.type,
            contractId: entry.contractId,
            ...(entry.event ? { event: entry.event.type } : {}),
          });
          state.cursor = entry.id;
          saveState(statePath, state);
          await step();
        }
      } catch (err) {
        if (signal?.aborted) break;
        log('stream-lost', { message: err instanceof Error ? err.message : String(err) });
        await sleep(2000);
      }
    }
  } finally {
    clearInterval(timer);
    log('stopped');
  }
}
