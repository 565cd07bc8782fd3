// The embedded ledger as the process uses it: a Ledger whose every call runs on a thread of its own
// (sqlite-thread.ts), so a COMMIT's fsync never stops this process's event loop (the API, the
// workers and their clients all share it). Same answers and the same error classes as the SQLite
// store itself.
//
// If the thread dies, every call in flight fails with LedgerThreadExitedError (retryable: whether a
// write in flight committed is unknown, and a retry with the same operation id replays or applies it
// once), and the next call starts a new thread on the same file.
import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MandateRegistry } from './mandates';
import type { PanelRegistry } from './panels';
import { errorFromWire } from './thread-protocol';
import type {
  LedgerMethod,
  MandateMethod,
  PanelMethod,
  ThreadCall,
  ThreadMessage,
  ThreadMethod,
} from './thread-protocol';
import type { Ledger } from './types';

const THREAD_ENTRY = join(__dirname, `sqlite-thread${extname(__filename)}`);
/** A new thread has none of this process's loaders: run from TypeScript sources, it registers tsx's first. */
const THREAD_BOOT = [
  ...(THREAD_ENTRY.endsWith('.ts')
    ? [`require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();`]
    : []),
  `require(${JSON.stringify(THREAD_ENTRY)});`,
].join('\n');

/** The ledger's thread ended while calls were in flight (or before it opened the file). Not a LedgerError: retry it. */
export class LedgerThreadExitedError extends Error {
  constructor(readonly exitCode: number) {
    super(`the SQLite ledger's thread exited (code ${exitCode})`);
    this.name = 'LedgerThreadExitedError';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class ThreadLedger implements Ledger {
  readonly panels: PanelRegistry;
  readonly mandates: MandateRegistry;
  private thread: Promise<Worker> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly path: string) {
    const panel = <M extends PanelMethod>(name: M) =>
      ((...args: unknown[]) => this.call(`panels.${name}`, args)) as PanelRegistry[M];
    this.panels = {
      openPanel: panel('openPanel'),
      closePanel: panel('closePanel'),
      closeSeats: panel('closeSeats'),
      joinWaitlist: panel('joinWaitlist'),
      leaveWaitlist: panel('leaveWaitlist'),
      waitlist: panel('waitlist'),
      openPanelsOf: panel('openPanelsOf'),
      voteRowsByContract: panel('voteRowsByContract'),
      voteRowsOf: panel('voteRowsOf'),
    };
    const mandate = <M extends MandateMethod>(name: M) =>
      ((...args: unknown[]) => this.call(`mandates.${name}`, args)) as MandateRegistry[M];
    this.mandates = {
      grant: mandate('grant'),
      revoke: mandate('revoke'),
      list: mandate('list'),
      newestFor: mandate('newestFor'),
    };
  }

  private method<M extends LedgerMethod>(name: M): Ledger[M] {
    return ((...args: unknown[]) => this.call(name, args)) as Ledger[M];
  }

  readonly deposit = this.method('deposit');
  readonly withdraw = this.method('withdraw');
  readonly transfer = this.method('transfer');
  readonly hold = this.method('hold');
  readonly resolve = this.method('resolve');
  readonly voidHold = this.method('voidHold');
  readonly mint = this.method('mint');
  readonly batch = this.method('batch');
  readonly seat = this.method('seat');
  readonly balances = this.method('balances');
  readonly getHold = this.method('getHold');
  readonly holdsByContract = this.method('holdsByContract');
  readonly openContractHolds = this.method('openContractHolds');
  readonly holdsOf = this.method('holdsOf');
  readonly postingsByContract = this.method('postingsByContract');
  readonly eligibleAgents = this.method('eligibleAgents');
  readonly audit = this.method('audit');

  /** Closes the database once every call sent before has been answered, and waits for the thread to end. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const thread = this.thread;
    const worker = await thread?.catch(() => undefined);
    if (!worker || this.thread !== thread) return; // never started, or already ended
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    await this.send(worker, 'close', []);
    await exited;
  }

  /** Ends the thread at once, as a crash would (calls in flight fail, the file is not closed cleanly). */
  async terminate(): Promise<void> {
    await (await this.thread)?.terminate();
  }

  /** Starts the thread (once) and resolves once it has opened (or created, or migrated) the file. */
  start(): Promise<Worker> {
    this.thread ??= new Promise<Worker>((ready, failed) => {
      const worker = new Worker(THREAD_BOOT, { eval: true, workerData: { path: this.path } });
      let failure: Error | undefined;
      worker.on('message', (message: ThreadMessage) => {
        if (message.kind === 'ready') {
          if (this.pending.size === 0) worker.unref();
          ready(worker);
        } else if (message.kind === 'failed') failure = errorFromWire(message.error);
        else this.answer(worker, message);
      });
      worker.on('error', (error) => (failure ??= error));
      worker.on('exit', (code) => {
        this.thread = undefined;
        const error = failure ?? new LedgerThreadExitedError(code);
        failed(error);
        for (const call of this.pending.values()) call.reject(error);
        this.pending.clear();
      });
    });
    return this.thread;
  }

  private async call(method: ThreadMethod, args: unknown[]): Promise<unknown> {
    if (this.closed) throw new Error('the ledger is closed');
    return this.send(await this.start(), method, args);
  }

  private send(worker: Worker, method: ThreadMethod, args: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    // Held while a call is in flight, so the process waits for the answer; idle, the thread keeps
    // nothing alive (as the in-process store's open file does not).
    if (this.pending.size === 0) worker.ref();
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    worker.postMessage({ id, method, args } satisfies ThreadCall);
    return answer;
  }

  private answer(worker: Worker, message: Extract<ThreadMessage, { kind: 'answer' }>): void {
    const call = this.pending.get(message.id);
    if (!call) return;
    this.pending.delete(message.id);
    if (this.pending.size === 0 && !this.closed) worker.unref();
    if ('error' in message) call.reject(errorFromWire(message.error));
    else call.resolve(message.value);
  }
}

export async function openThreadLedger(path: string): Promise<ThreadLedger> {
  const ledger = new ThreadLedger(path);
  await ledger.start();
  return ledger;
}
