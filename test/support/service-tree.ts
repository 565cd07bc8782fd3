// The real `npm start` process tree for process-level tests: spawned detached (its own process
// group, npm its leader), so a test can stop it as an operator would (SIGTERM) or kill every process
// in it at once (SIGKILL), and then check that none survived.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ServiceTree {
  readonly child: ChildProcess;
  /** Everything the tree printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once /health at `url` answers 200; fails if the tree exits first or time runs out. */
  healthy(url: string, timeoutMs?: number): Promise<void>;
  /**
   * Sends `signal` to every process of the group and resolves once none is left alive (a child such
   * as the dev server may outlive npm while it shuts down and still write to the data dir). Members
   * still alive after `graceMs` get SIGKILL, so a test's cleanup never races a dying process.
   */
  signalAll(signal: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export function startServiceTree(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  args?: string[];
}): ServiceTree {
  const child = spawn('npm', ['start', ...(options.args ?? [])], {
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async healthy(url, timeoutMs = 150_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        assert.ok(child.exitCode === null && child.signalCode === null, `the tree exited:\n${output}`);
        assert.ok(Date.now() < deadline, `no healthy start in ${timeoutMs} ms:\n${output}`);
        const status = await fetch(`${url}/health`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) return;
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    async signalAll(signal, graceMs = 20_000) {
      const pgid = child.pid!;
      if (child.exitCode === null && child.signalCode === null) process.kill(-pgid, signal);
      await exited;
      const deadline = Date.now() + graceMs;
      while (processGroupMembers(pgid).length > 0) {
        if (Date.now() > deadline) {
          for (const pid of processGroupMembers(pgid)) killQuietly(pid);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

/** The live (not zombie) processes whose process group is `pgid`, read from /proc. */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone between the listing and the read
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name));
  }
  return members;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // exited between the listing and the kill
  }
}
