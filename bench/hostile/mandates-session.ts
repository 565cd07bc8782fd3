// A black-box hostile session against mandates (docs/agents.md "Mandates"), through HTTP only, with many
// keys: a delegate racing its own limits, several delegates of one owner racing together, a revoked
// delegate replaying its keyed requests, strangers naming someone else as owner, a signature whose owner
// was swapped, a delegate of one owner acting for another, and a delegate at the routes a mandate never
// reaches. After each, the owner's balance is read: nothing may be held beyond a limit, nothing moved by a
// refusal, and the owner's own next step must still go through. Prints what held.
//
//   npx tsx bench/hostile/mandates-session.ts [--url <base> --operator-token <token>]
import {
  balances,
  create,
  deposit,
  HOUR,
  newKey,
  report,
  runSession,
  send,
  terms,
  USDC,
  type Key,
  CREATE_COST,
} from './session-kit';

/** What one creation of terms() commits under a mandate: its escrow and its panel fee. */
const PRICE = CREATE_COST;

function grant(owner: Key, delegate: Key, limits: Record<string, unknown>, expiresInMs = HOUR) {
  return send(owner, 'POST', `/agents/${owner.address}/mandates`, {
    delegate: delegate.address,
    limits,
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  });
}

const amounts = (perContract: bigint, total: bigint, perDay: bigint) => ({
  perContract: perContract.toString(),
  total: total.toString(),
  perDay: perDay.toString(),
});

const tally = (statuses: number[]) =>
  Object.entries(statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}))
    .map(([s, n]) => `${n}×${s}`)
    .join(' ');

/** 1: one delegate fires 24 creations at once against total = 4 prices; exactly 4 may hold. */
async function racingItsLimits() {
  const owner = newKey();
  const delegate = newKey();
  await deposit(owner, 100n * USDC);
  await grant(owner, delegate, amounts(PRICE, 4n * PRICE, 100n * USDC));
  const answers = await Promise.all(
    Array.from({ length: 24 }, () =>
      send(delegate, 'POST', '/contracts', terms(), { onBehalfOf: owner.address }).then((a) => a.status),
    ),
  );
  const held = (await balances(owner)).held;
  const created = answers.filter((s) => s === 201).length;
  report(
    'a delegate racing its own total',
    '24 concurrent creations of one price each under total = 4 prices',
    created === 4 && held === 4n * PRICE && answers.every((s) => s === 201 || s === 403),
    `${tally(answers)}; owner holds ${held} (limit ${4n * PRICE})`,
  );
  return { racedCreations: answers.length, created };
}

/** 2: five delegates of one owner race, each under its own total; the owner's held is the sum of theirs. */
async function delegatesRacingTogether() {
  const owner = newKey();
  await deposit(owner, 100n * USDC);
  const delegates = Array.from({ length: 5 }, newKey);
  for (const [i, d] of delegates.entries())
    await grant(owner, d, amounts(PRICE, BigInt(i + 1) * PRICE, 100n * USDC));
  const answers = await Promise.all(
    delegates.flatMap((d) =>
      Array.from({ length: 8 }, () =>
        send(d, 'POST', '/contracts', terms(), { onBehalfOf: owner.address }).then((a) => a.status),
      ),
    ),
  );
  const list = await send(owner, 'GET', `/agents/${owner.address}/mandates`);
  const within = (list.json.mandates as Array<{ committed: string; limits: { total: string } }>).every(
    (m) => BigInt(m.committed) <= BigInt(m.limits.total),
  );
  const held = (await balances(owner)).held;
  report(
    'delegates of one owner racing together',
    '5 delegates with totals of 1..5 prices, 8 concurrent creations each',
    within && held === 15n * PRICE,
    `${tally(answers)}; owner holds ${held} (sum of totals ${15n * PRICE}); every mandate within its total: ${within}`,
  );
}

/** 3: a revoked delegate replays its keyed creation and sends new ones; the owner then acts itself. */
async function revokedReplay() {
  const owner = newKey();
  const delegate = newKey();
  await deposit(owner, 20n * USDC);
  const granted = await grant(owner, delegate, amounts(PRICE, 4n * PRICE, 100n * USDC));
  const body = terms();
  const keyed = { onBehalfOf: owner.address, headers: { 'Idempotency-Key': 'replay-me-0001' } };
  const first = await send(delegate, 'POST', '/contracts', body, keyed);
  await send(owner, 'DELETE', `/agents/${owner.address}/mandates/${granted.json.id}`);
  const before = await balances(owner);
  const replays = await Promise.all(
    Array.from({ length: 10 }, () =>
      send(delegate, 'POST', '/contracts', body, keyed).then((a) => a.json?.error?.code),
    ),
  );
  const fresh = await send(delegate, 'POST', '/contracts', terms(), { onBehalfOf: owner.address });
  const cancel = await send(
    delegate,
    'POST',
    `/contracts/${first.json.contractId}/cancel`,
    {},
    { onBehalfOf: owner.address },
  );
  const after = await balances(owner);
  const ownerCancels = await send(owner, 'POST', `/contracts/${first.json.contractId}/cancel`, {});
  report(
    'a revoked delegate replaying keyed requests',
    'a keyed creation, the mandate revoked, then 10 replays of it, a new creation and a cancel by the delegate; then the owner cancels',
    first.status === 201 &&
      replays.every((c) => c === 'mandate_revoked') &&
      fresh.json?.error?.code === 'mandate_revoked' &&
      cancel.json?.error?.code === 'mandate_revoked' &&
      after.held === before.held &&
      ownerCancels.status === 200,
    `first ${first.status}; replays ${[...new Set(replays)].join(',')}; new ${fresh.status} ${fresh.json?.error?.code}; cancel ${cancel.status}; owner held ${before.held} → ${after.held}; owner's cancel ${ownerCancels.status}`,
  );
}

/** 4: strangers name an owner; a delegate's signed owner is swapped or left uncovered. */
async function strangersAndForgeries() {
  const owner = newKey();
  const other = newKey();
  const delegate = newKey();
  await deposit(owner, 20n * USDC);
  await deposit(other, 20n * USDC);
  await grant(owner, delegate, amounts(PRICE, 4n * PRICE, 100n * USDC));
  const strangers = await Promise.all(
    Array.from({ length: 10 }, () =>
      send(newKey(), 'POST', '/contracts', terms(), { onBehalfOf: owner.address }).then(
        (a) => a.json?.error?.code,
      ),
    ),
  );
  // Signed for `owner`, sent naming `other`: the header is covered by the signature.
  const swapped = await send(delegate, 'POST', '/contracts', terms(), {
    onBehalfOf: owner.address,
    headers: { 'On-Behalf-Of': other.address },
  });
  // Signed without naming anyone, the header added afterwards: the signature does not cover it.
  const uncovered = await send(delegate, 'POST', '/contracts', terms(), {
    headers: { 'On-Behalf-Of': owner.address },
  });
  const held = [(await balances(owner)).held, (await balances(other)).held];
  report(
    'strangers and forged owners',
    '10 strangers name an owner; a delegate’s signed On-Behalf-Of swapped for another owner; one added after signing',
    strangers.every((c) => c === 'mandate_missing') &&
      swapped.status === 401 &&
      uncovered.status === 401 &&
      held.every((h) => h === 0n),
    `strangers ${[...new Set(strangers)].join(',')}; swapped ${swapped.status}; uncovered ${uncovered.status}; held ${held.join(', ')}`,
  );
}

/** 5: a delegate of one owner acts for another, and on the other's resources; and at the closed routes. */
async function crossOwnerAndClosedRoutes() {
  const a = newKey();
  const b = newKey();
  const delegate = newKey();
  await deposit(a, 20n * USDC);
  await deposit(b, 20n * USDC);
  await grant(a, delegate, amounts(PRICE, 4n * PRICE, 100n * USDC));
  const bContract = await create(b, terms());
  const asB = await send(delegate, 'POST', '/contracts', terms(), { onBehalfOf: b.address });
  const cancelB = await send(
    delegate,
    'POST',
    `/contracts/${bContract}/cancel`,
    {},
    { onBehalfOf: a.address },
  );
  const readB = await send(delegate, 'GET', `/agents/${b.address}/balances`, undefined, {
    onBehalfOf: a.address,
  });
  const onA = { onBehalfOf: a.address, headers: { 'Idempotency-Key': `k-${Date.now()}` } };
  const closed = await Promise.all([
    send(delegate, 'POST', `/agents/${a.address}/withdrawals`, { amount: '1', destination: 'bank:x' }, onA),
    send(delegate, 'POST', '/eligibility/lock', { amount: '1' }, { onBehalfOf: a.address }),
    send(delegate, 'POST', '/eligibility/unlock', {}, { onBehalfOf: a.address }),
    send(
      delegate,
      'POST',
      `/agents/${a.address}/webhooks`,
      { url: 'https://93.184.216.34/h' },
      { onBehalfOf: a.address },
    ),
    send(
      delegate,
      'POST',
      `/agents/${a.address}/mandates`,
      {
        delegate: newKey().address,
        limits: amounts(1n, 1n, 1n),
        expiresAt: new Date(Date.now() + HOUR).toISOString(),
      },
      { onBehalfOf: a.address },
    ),
  ]);
  const held = [(await balances(a)).held, (await balances(b)).held];
  const bCancels = await send(b, 'POST', `/contracts/${bContract}/cancel`, {});
  report(
    'a delegate of one owner acting for another',
    'create for B, cancel B’s contract and read B’s balances under A’s mandate; withdraw, lock/unlock eligibility, add a webhook, grant a mandate for A',
    asB.json?.error?.code === 'mandate_missing' &&
      cancelB.status === 403 &&
      readB.status === 403 &&
      closed.every((c) => c.json?.error?.code === 'mandate_not_allowed') &&
      held[0] === 0n &&
      held[1] === PRICE &&
      bCancels.status === 200,
    `for B ${asB.status} ${asB.json?.error?.code}; cancel B's ${cancelB.status}; read B ${readB.status}; closed routes ${closed.map((c) => c.json?.error?.code).join(',')}; held A ${held[0]} B ${held[1]}; B's own cancel ${bCancels.status}`,
  );
}

void runSession({}, async () => {
  const raced = await racingItsLimits();
  await delegatesRacingTogether();
  await revokedReplay();
  await strangersAndForgeries();
  await crossOwnerAndClosedRoutes();
  return raced;
});
