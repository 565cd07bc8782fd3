// A black-box hostile session against the cluster's shared Idempotency-Keys (docs/scale.md, "What a caller sees
// during each fault"): one funded key races the same keyed creation through both APIs at once, hammers a key
// another API is running, and retries its requests in flight on the other API while the first is SIGKILLed.
// Through HTTP only; the kill is the operator's fault, not the attacker's. Each keyed creation must hold its
// escrow exactly once, and a caller whose API died must have its answer within seconds.
//
//   npx tsx bench/hostile/cluster-keys-session.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type Cluster } from '../../service/cluster';
import {
  balances,
  deposit,
  newKey,
  report,
  send,
  summarize,
  target,
  terms,
  USDC,
  type Key,
} from './session-kit';

const PRICE = (25n * USDC) / 10n; // terms()'s amount
const FUNDS = 200n * USDC;

/**
 * Sends a keyed creation until it is answered, as an SDK would: a dead API or a key still held, the next
 * API a beat later; a 429 (the key's own rate limit, refused before any effect), a second later.
 */
async function createUntilAnswered(
  who: Key,
  key: string,
  body: object,
  urls: string[],
): Promise<{ status: number; id?: string }> {
  for (let attempt = 0; ; attempt++) {
    const base = urls[attempt % urls.length]!;
    const answer = await send(who, 'POST', '/contracts', body, {
      base,
      headers: { 'Idempotency-Key': key },
    }).catch(() => undefined);
    const held = answer?.status === 409 && answer.json?.error?.code === 'idempotency_in_progress';
    if (answer && !held && answer.status !== 429)
      return { status: answer.status, id: answer.json?.contractId };
    await new Promise((r) => setTimeout(r, answer?.status === 429 ? 1_000 : 200));
  }
}

/** What the attacker holds in escrow: one creation's price per contract that exists. */
async function heldMatches(who: Key, contracts: number): Promise<{ ok: boolean; detail: string }> {
  const b = await balances(who);
  const ok = b.held === BigInt(contracts) * PRICE && b.available + b.held === FUNDS;
  return {
    ok,
    detail: `held ${b.held} for ${contracts} contracts (${BigInt(contracts) * PRICE} expected), available ${b.available}`,
  };
}

async function attacks(cluster: Cluster): Promise<Record<string, unknown>> {
  const [api1, api2] = cluster.apiUrls as [string, string];
  const attacker = newKey();
  await deposit(attacker, FUNDS);
  let contracts = 0;

  // 1: the same keyed creation through both APIs at the same instant, 20 keys.
  const raced = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const body = terms();
      const key = `race-${i}`;
      const answers = await Promise.all([
        createUntilAnswered(attacker, key, body, [api1, api2]),
        createUntilAnswered(attacker, key, body, [api2, api1]),
      ]);
      return answers;
    }),
  );
  contracts += 20;
  const oneIdPerKey = raced.every(([a, b]) => a.status === 201 && b.status === 201 && a.id === b.id);
  const held1 = await heldMatches(attacker, contracts);
  report(
    'a keyed creation raced through both APIs',
    '20 keys, each sent to api-1 and api-2 at once (identical bodies), retried until answered',
    oneIdPerKey && held1.ok,
    `every key answered 201 twice with one contract: ${oneIdPerKey}; ${held1.detail}`,
  );

  // 2: a key api-1 is running, hammered through api-2 while it runs.
  const body = terms();
  const first = createUntilAnswered(attacker, 'hammered', body, [api1, api2]);
  const hammer = await Promise.all(
    Array.from({ length: 50 }, () =>
      send(attacker, 'POST', '/contracts', body, { base: api2, headers: { 'Idempotency-Key': 'hammered' } }),
    ),
  );
  const firstAnswer = await first;
  contracts += 1;
  const ids = new Set([
    firstAnswer.id,
    ...hammer.filter((a) => a.status === 201).map((a) => a.json.contractId),
  ]);
  const codes = [
    ...new Set(hammer.map((a) => `${a.status}${a.json?.error?.code ? ` ${a.json.error.code}` : ''}`)),
  ];
  const held2 = await heldMatches(attacker, contracts);
  report(
    'a key hammered through the other API while it runs',
    '50 sends of a key api-1 is running, through api-2 at once',
    ids.size === 1 && held2.ok && hammer.every((a) => [201, 409, 429].includes(a.status)),
    `answers ${codes.join(', ')}; one contract: ${ids.size === 1}; ${held2.detail}`,
  );

  // 3: ten keyed creations in flight on api-1 when it is SIGKILLed, retried on api-2 as they fail.
  const bodies = Array.from({ length: 10 }, () => terms());
  const inFlight = bodies.map((b, i) => createUntilAnswered(attacker, `killed-${i}`, b, [api1, api2]));
  await new Promise((r) => setTimeout(r, 30));
  const killedAt = Date.now();
  await cluster.apis[0]!.kill('SIGKILL');
  const answered = await Promise.all(
    inFlight.map((p) => p.then((a) => ({ ...a, ms: Date.now() - killedAt }))),
  );
  contracts += 10;
  const slowest = Math.max(...answered.map((a) => a.ms));
  const held3 = await heldMatches(attacker, contracts);
  report(
    'requests in flight on an API that is SIGKILLed',
    '10 keyed creations on api-1, SIGKILL 30 ms later, each retried on api-2 with its key',
    answered.every((a) => a.status === 201) && held3.ok && slowest <= 15_000,
    `statuses ${[...new Set(answered.map((a) => a.status))].join(',')}, last answered ${slowest} ms after the kill; ${held3.detail}`,
  );
  await cluster.apis[0]!.start();
  return { money: { keys: 1, deposited: FUNDS.toString() }, killedApiLastAnsweredMs: slowest };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-hostile-cluster-'));
  target.operatorToken = 'hostile-session-operator-token';
  const cluster = await startCluster({
    dir,
    settings: {
      OPERATOR_TOKEN: target.operatorToken,
      VAULT_MASTER_KEY: '4d'.repeat(32),
      PAYLOAD_CODEC_KEY: '5e'.repeat(32),
      CURSOR_KEY: '6f'.repeat(32),
    },
  });
  target.base = cluster.apiUrls[1]!; // balances and deposits through the API that stays up
  try {
    const started = Date.now();
    const extra = await attacks(cluster);
    summarize(started, extra);
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
