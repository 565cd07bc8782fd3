// The SQLite ledger's thread (a worker_threads entry, started by thread-ledger.ts): opens the store
// here, so its synchronous statements and the fsync of every COMMIT block this thread only, never the
// event loop of the process that serves the API and runs the workers. Answers calls one message at a
// time in arrival order; the store's own queue keeps its transactions apart as before.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteLedger } from './sqlite-store';
import { errorToWire } from './thread-protocol';
import type { ThreadCall, ThreadMessage } from './thread-protocol';
import type { Ledger } from './types';

const port = parentPort!;
const send = (message: ThreadMessage) => port.postMessage(message);

function method(ledger: Ledger, name: ThreadCall['method']): (...args: unknown[]) => Promise<unknown> {
  const [registry, member] = name.split('.') as [string, string | undefined];
  const [target, key]: [object, string] =
    member === undefined ? [ledger, name] : [registry === 'panels' ? ledger.panels : ledger.mandates, member];
  const fn = (target as Record<string, unknown>)[key];
  if (typeof fn !== 'function') throw new TypeError(`no ledger method ${name}`);
  return fn.bind(target) as (...args: unknown[]) => Promise<unknown>;
}

let ledger: Ledger;
try {
  ledger = openSqliteLedger((workerData as { path: string }).path);
} catch (error) {
  send({ kind: 'failed', error: errorToWire(error) });
  process.exit(1);
}
send({ kind: 'ready' });

port.on('message', async ({ id, method: name, args }: ThreadCall) => {
  try {
    send({ kind: 'answer', id, value: await method(ledger, name)(...args) });
  } catch (error) {
    send({ kind: 'answer', id, error: errorToWire(error) });
  }
  // The database is closed and answered: nothing keeps the thread alive, so it ends.
  if (name === 'close') port.close();
});
