// One child process of the cluster profile that can be killed (any signal) and started again with the same
// command, environment and ports. Output is kept (the last 64 KiB) for the error when it fails to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const OUTPUT_TAIL = 64 * 1024;

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** How long a stop waits for the exit after SIGTERM before it sends SIGKILL (default 60 s). */
  stopGraceMs?: number;
  /** Resolves when the fresh process serves (a port opens, a line is printed…). */
  ready(process: ManagedProcess): Promise<void>;
}

export class ManagedProcess {
  private child: ChildProcess | undefined;
  private output = '';
  private exited: Promise<void> = Promise.resolve();

  constructor(readonly spec: ProcessSpec) {}

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  log(): string {
    return this.output;
  }

  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is running already`);
    this.output = '';
    const child = spawn(this.spec.command, this.spec.args, {
      env: this.spec.env,
      cwd: this.spec.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-OUTPUT_TAIL);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    try {
      await Promise.race([
        this.spec.ready(this),
        this.exited.then(() => {
          throw new Error(`exited with ${child.signalCode ?? child.exitCode}`);
        }),
      ]);
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${this.name} did not start: ${(error as Error).message}\n${this.output}`, {
        cause: error,
      });
    }
  }

  /**
   * Sends `signal` and waits for the exit (SIGKILL: the crash the load test injects). A process still alive
   * `graceMs` later gets SIGKILL, so a stop never hangs on a stuck shutdown and never returns before the exit.
   */
  async kill(signal: NodeJS.Signals = 'SIGTERM', graceMs = this.spec.stopGraceMs ?? 60_000): Promise<void> {
    if (!this.running) return;
    const child = this.child!;
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.exited, overdue]);
    clearTimeout(timer);
    if (this.running) {
      console.error(`${this.name}: no exit ${graceMs} ms after ${signal}, sending SIGKILL`);
      child.kill('SIGKILL');
      await this.exited;
    }
  }

  async restart(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.kill(signal);
    await this.start();
  }

  /** Waits until `pattern` appears in this run's output. */
  async printed(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.output.match(pattern);
      if (match) return match;
      if (Date.now() > deadline) throw new Error(`no ${String(pattern)} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A base port such that base + each offset is free on 127.0.0.1 (Temporal's services count from one base).
 * Below Linux's ephemeral range (32768+): there no outgoing connection can take a port between this check
 * and the server's bind, nor connect to itself on it while a readiness probe knocks.
 */
export async function freePortRange(offsets: readonly number[]): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(offsets.map((o) => portFree(base + o)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('found no free range of ports on 127.0.0.1');
}
