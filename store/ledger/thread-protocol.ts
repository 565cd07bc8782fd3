// What the SQLite ledger's thread (sqlite-thread.ts) and its proxy (thread-ledger.ts) say to each other.
// A call names a Ledger method (`panels.<method>` for the panel registry, `mandates.<method>` for the mandates) and its arguments; values
// cross by structured clone (bigint included). An error crosses as its class name and fields, and is
// rebuilt as the same class on the caller's side, so `instanceof` and `code` work as on the store itself.
import Database from 'better-sqlite3';
import * as ledgerErrors from './errors';
import type { Ledger } from './types';
import type { MandateRegistry } from './mandates';
import type { PanelRegistry } from './panels';

type MethodsOf<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];
export type LedgerMethod = Exclude<MethodsOf<Ledger>, 'close'>;
export type PanelMethod = MethodsOf<PanelRegistry>;
export type MandateMethod = MethodsOf<MandateRegistry>;
export type ThreadMethod = LedgerMethod | `panels.${PanelMethod}` | `mandates.${MandateMethod}` | 'close';

export interface ThreadCall {
  id: number;
  method: ThreadMethod;
  args: unknown[];
}

export interface WireError {
  className: string;
  message: string;
  stack: string | undefined;
  /** The error's own enumerable fields (`code`, `details`, `field`, ...). */
  fields: Record<string, unknown>;
}

/** From the thread: the store opened (or failed to), or the answer to one call. */
export type ThreadMessage =
  | { kind: 'ready' }
  | { kind: 'failed'; error: WireError }
  | { kind: 'answer'; id: number; value: unknown }
  | { kind: 'answer'; id: number; error: WireError };

type ErrorClass = abstract new (...args: never[]) => Error;

const isErrorClass = (value: unknown): value is ErrorClass =>
  typeof value === 'function' && value.prototype instanceof Error;

/** The classes an error may be rebuilt as: the ledger's own, better-sqlite3's, and the built-in ones. */
const ERROR_CLASSES = new Map<string, ErrorClass>(
  [...Object.values(ledgerErrors), Database.SqliteError, RangeError, TypeError, Error]
    .filter(isErrorClass)
    .map((cls) => [cls.name, cls]),
);

/** The fields that can cross (all of a ledger error's do); none if any cannot. */
function cloneable(fields: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(fields);
  } catch {
    return {};
  }
}

export function errorToWire(error: unknown): WireError {
  if (!(error instanceof Error))
    return { className: 'Error', message: String(error), stack: undefined, fields: {} };
  const { name, message, stack } = error;
  return { className: error.constructor.name || name, message, stack, fields: cloneable({ ...error }) };
}

/** The same class with the same fields; a class the caller does not know becomes an Error of that name. */
export function errorFromWire(wire: WireError): Error {
  const cls = ERROR_CLASSES.get(wire.className);
  const error = Object.create((cls ?? Error).prototype) as Error;
  const hidden = (value: unknown) => ({ value, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(error, 'message', hidden(wire.message));
  Object.defineProperty(error, 'stack', hidden(wire.stack ?? `${wire.className}: ${wire.message}`));
  if (!cls) Object.defineProperty(error, 'name', hidden(wire.className));
  return Object.assign(error, wire.fields);
}
