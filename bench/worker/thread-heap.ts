// A V8 heap limit for the SDK's workflow threads, for bench/worker/cache-memory.ts (docs/performance.md,
// "Worker settings"). The SDK starts them without resource limits, so each takes V8's default, sized
// from the machine's memory (4 GB here). The limit is a V8 flag read when a thread's isolate starts: it
// is set while the worker starts its threads and put back afterwards, so the main thread and any later
// thread keep the default.
import { setFlagsFromString } from 'node:v8';

const FLAG = '--max-old-space-size';
let starting = 0;

/** Whether the process was started with a heap limit of the operator's own, which wins. */
function operatorLimit(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes(FLAG));
}

/**
 * Runs `start` (which must have started its worker threads when it resolves) with every thread it
 * starts limited to `limitMb` of old-generation heap. 0 restores V8's default afterwards.
 */
export async function withThreadHeapLimit<T>(limitMb: number, start: () => Promise<T>): Promise<T> {
  if (operatorLimit()) return start();
  starting++;
  setFlagsFromString(`${FLAG}=${limitMb}`);
  try {
    return await start();
  } finally {
    if (--starting === 0) setFlagsFromString(`${FLAG}=0`);
  }
}
