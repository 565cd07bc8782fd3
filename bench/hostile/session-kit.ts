// What the black-box hostile sessions share: keys, signed requests with every status counted and
// every 5xx kept, operator deposits, balances, contract terms, findings, and the `npm start` tree in a
// temporary directory (or `--url <base> --operator-token <token>` for a running service; with
// OPENCONTRACT_SESSION_LOG=<file> the tree's output is written there at the end).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressFromPrivateKey, randomPrivateKey } from '../../sdk/typescript';
import { signRequest } from '../../sdk/typescript/signer';
import { TICKET_HEADER } from '../../api/auth/ticket-header';
import { serverPaths } from '../../temporal.config';
import { freePort } from '../../service/postgres-server';
import { startServiceTree, type ServiceTree } from '../../test/support/service-tree';

const root = join(__dirname, '..', '..');
export const USDC = 1_000_000n;
export const HOUR = 3_600_000;

export interface Key {
  key: string;
  address: string;
}
export const newKey = (): Key => {
  const key = randomPrivateKey();
  return { key, address: addressFromPrivateKey(key) };
};

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  ms: number;
}

/** Where the session sends its requests, and the operator's token for deposits and verdicts. */
export const target = { base: '', operatorToken: '' };
export const statuses = new Map<number, number>();
/** The service's 5xx answers, whatever the attack: the one outcome no input may have. */
export const serverErrors: string[] = [];

/** Each key's latest verified-agent ticket, sent back on its signed requests as the SDKs do. */
const tickets = new Map<string, string>();

export async function send(
  who: Key | undefined,
  method: string,
  path: string,
  body?: unknown,
  init: { raw?: string; headers?: Record<string, string>; base?: string; onBehalfOf?: string } = {},
): Promise<Answer> {
  const text = init.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const headers: Record<string, string> = {
    ...(text === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(who === undefined
      ? {}
      : signRequest({
          method,
          url: path,
          privateKey: who.key,
          ...(text === undefined ? {} : { body: text }),
          ...(init.onBehalfOf === undefined ? {} : { onBehalfOf: init.onBehalfOf }),
        })),
    ...(who === undefined || !tickets.has(who.key) ? {} : { [TICKET_HEADER]: tickets.get(who.key)! }),
    ...init.headers,
  };
  const started = Date.now();
  const res = await fetch((init.base ?? target.base) + path, {
    method,
    headers,
    ...(text === undefined ? {} : { body: text }),
  });
  const raw = await res.text();
  const ms = Date.now() - started;
  const ticket = res.headers.get(TICKET_HEADER);
  if (who !== undefined && ticket !== null) tickets.set(who.key, ticket);
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  if (res.status >= 500)
    serverErrors.push(`${method} ${path.slice(0, 80)} → ${res.status} ${raw.slice(0, 200)}`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, ms };
}

export const deposit = (to: Key, amount: bigint) =>
  send(
    undefined,
    'POST',
    '/operator/deposits',
    { address: to.address, asset: 'USDC', amount: amount.toString() },
    {
      headers: {
        Authorization: `Bearer ${target.operatorToken}`,
        'Idempotency-Key': `d-${to.address}-${Date.now()}-${Math.random()}`,
      },
    },
  );

/** Every key the session funded and what it was given: the session's money budget. */
export const funded = new Map<string, { key: Key; deposited: bigint }>();
export async function fund(key: Key, amount: bigint): Promise<void> {
  const res = await deposit(key, amount);
  if (res.status !== 201 && res.status !== 200) throw new Error(`deposit: ${res.status}`);
  const entry = funded.get(key.address) ?? { key, deposited: 0n };
  entry.deposited += amount;
  funded.set(key.address, entry);
}
export const fundedKey = async (amount: bigint): Promise<Key> => {
  const key = newKey();
  await fund(key, amount);
  return key;
};
/** The session's budget so far: everything deposited to its keys. */
export const budget = (): bigint => [...funded.values()].reduce((a, f) => a + f.deposited, 0n);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Times a session's named phases, in whole seconds, for its summary. */
export function phaseTimer() {
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    try {
      return await f();
    } finally {
      timings[name] = Math.round((Date.now() - started) / 1000);
    }
  };
  return { timings, timed };
}

/** A signed request that waits out the per-host rate limit instead of counting a 429 as an answer. */
export async function patient(
  who: Key | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  for (;;) {
    const res = await send(who, method, path, body);
    if (res.status !== 429) return res;
    await sleep(500);
  }
}

export async function balances(who: Key): Promise<{ available: bigint; held: bigint }> {
  const res = await send(who, 'GET', `/agents/${who.address}/balances`);
  return { available: BigInt(res.json.balances.USDC.available), held: BigInt(res.json.balances.USDC.held) };
}

/** terms()'s price. */
export const TERMS_PRICE = (25n * USDC) / 10n;
/** What a Client's create of terms() (open award: standard mode) holds: the escrow and the panel fee (0.2 USDC × 3 seats). */
export const CREATE_COST = TERMS_PRICE + 3n * 200_000n;

export function terms(overrides: Record<string, unknown> = {}, matchInMs = HOUR) {
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  return {
    contractType: 'fixed',
    awardMethod: 'open',
    taskDescription: 'Translate the attached README into French.',
    acceptanceCriteria: ['complete', 'accurate'],
    amount: TERMS_PRICE.toString(),
    deadlines: {
      match: at(matchInMs),
      withdrawal: at(matchInMs + HOUR),
      delivery: at(matchInMs + 2 * HOUR),
      review: at(matchInMs + 3 * HOUR),
    },
    ...overrides,
  };
}

export const DELIVERY = {
  uri: 'https://files.example/out.enc',
  sha256: 'cd'.repeat(32),
  key: 'delivery-key',
};

export interface Finding {
  attack: string;
  tried: string;
  held: boolean;
  detail: string;
}
export const findings: Finding[] = [];
export function report(attack: string, tried: string, held: boolean, detail: string) {
  findings.push({ attack, tried, held, detail });
  console.log(`${held ? 'HELD ' : 'BROKE'} ${attack}: ${tried}\n       ${detail}`);
}

export async function create(client: Key, body: object): Promise<string> {
  const res = await send(client, 'POST', '/contracts', body);
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.contractId;
}

/**
 * Runs `attacks` against the service named on the command line, or against a fresh `npm start` tree
 * with `env` added to its environment; then reports the 5xx count, prints the JSON summary with
 * `extra`, and sets the exit code. The tree is stopped and its directory removed whatever happens.
 */
export async function runSession(
  env: Record<string, string>,
  attacks: () => Promise<Record<string, unknown>>,
): Promise<void> {
  const args = process.argv.slice(2);
  const urlArg = args.indexOf('--url');
  let service: Service | undefined;
  if (urlArg >= 0) {
    target.base = args[urlArg + 1]!;
    target.operatorToken = args[args.indexOf('--operator-token') + 1]!;
  } else {
    service = await startService(env);
    target.base = service.base;
    target.operatorToken = service.operatorToken;
  }
  const started = Date.now();
  try {
    summarize(started, await attacks());
  } finally {
    await service?.stop(process.env.OPENCONTRACT_SESSION_LOG);
  }
}

export interface Service {
  base: string;
  operatorToken: string;
  /** Stops the tree and removes its directory; its output is written to `logFile` when given. */
  stop(logFile?: string): Promise<void>;
}

/** A fresh `npm start` tree in a temporary directory, with `env` added to its environment. */
export async function startService(env: Record<string, string>): Promise<Service> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-hostile-'));
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const operatorToken = 'hostile-session-operator-token';
  const tree: ServiceTree = startServiceTree({
    cwd: root,
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([n]) => !n.startsWith('TEMPORAL_'))),
      PORT: String(port),
      HOST: '127.0.0.1',
      OPENCONTRACT_DATA_DIR: dir,
      OPENCONTRACT_TEMPORAL_PORT: String(temporalPort),
      OPENCONTRACT_TEMPORAL_UI_PORT: String(uiPort),
      OPERATOR_TOKEN: operatorToken,
      VAULT_MASTER_KEY: '4d'.repeat(32),
      TEMPORAL_CLI_PATH: serverPaths.cli,
      LOG_LEVEL: 'WARN',
      ...env,
    },
  });
  const stop = async (logFile?: string) => {
    await tree.signalAll('SIGTERM');
    // The service's own log, for what a 5xx or a slow answer left there.
    if (logFile) writeFileSync(logFile, tree.output());
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await tree.healthy(base);
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, operatorToken, stop };
}

/**
 * Runs `phase` against a second fresh tree started with `env` (a setting the session's own service
 * does not have), then puts the session's target back. Not available with `--url`.
 */
export async function withService<T>(env: Record<string, string>, phase: () => Promise<T>): Promise<T> {
  const previous = { ...target };
  const service = await startService(env);
  Object.assign(target, { base: service.base, operatorToken: service.operatorToken });
  try {
    return await phase();
  } finally {
    Object.assign(target, previous);
    await service.stop();
  }
}

/**
 * Ends a session that began at `started`: reports the 5xx count, prints the JSON summary with `extra`,
 * and sets the exit code (1 if any attack broke).
 */
export function summarize(started: number, extra: Record<string, unknown>): void {
  report(
    'no 5xx',
    'every request of the session',
    serverErrors.length === 0,
    serverErrors.slice(0, 5).join(' | ') || 'none',
  );
  console.log(
    JSON.stringify(
      {
        seconds: Math.round((Date.now() - started) / 1000),
        requests: [...statuses.values()].reduce((a, b) => a + b, 0),
        statuses: Object.fromEntries([...statuses].sort()),
        ...extra,
        held: findings.filter((f) => f.held).length,
        broke: findings.filter((f) => !f.held).map((f) => f.attack),
      },
      null,
      2,
    ),
  );
  process.exitCode = findings.every((f) => f.held) ? 0 : 1;
}
