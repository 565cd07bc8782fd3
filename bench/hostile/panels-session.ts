// A black-box hostile session against the Backup Agent panel rules (docs/v2c.md), through HTTP only:
// the stake-weighted draw over the whole registry, seats that hold their bond, quorum and the trusted
// arbiter, appeals and waivers, the panel fee (paid by whoever brings a panel in, split among the
// seated BAs who voted), seat exhaustion and waiting order, and silent panels that void and redraw. It starts the real `npm start` tree with short windows, gives every
// key its money by operator deposits (the session's whole budget), runs each attack, prints what it
// tried and what held, and one JSON summary. Exit code 1 if anything did not hold. It expects a
// deployment of its own (the empty-registry attack needs nobody eligible), so `--url` is for a fresh
// service started with the same OPENCONTRACT_PARAMS.
//
//   npx tsx bench/hostile/panels-session.ts [--contracts 10]
import {
  balances,
  create,
  DELIVERY,
  funded,
  fundedKey,
  patient,
  report,
  runSession,
  send,
  sleep,
  target,
  terms,
  USDC,
  type Key,
  phaseTimer,
} from './session-kit';

const VOTING_WINDOW_MS = 8_000;
// Longer than two voting windows, so a void round can be redrawn once before the arbiter is due.
const RECRUITMENT_WINDOW_MS = 20_000;
const APPEAL_WINDOW_MS = 15_000;
const STAKE = 100n * USDC;
const BA_BOND = 10n * USDC;
const PRICE = (25n * USDC) / 10n;
const WORKER_STAKE = PRICE / 10n;
const DISPUTE_BOND = (PRICE * 500n) / 10_000n;
const APPEAL_BOND = PRICE / 10n;
const FEE = 200_000n;
const PANEL_FEE = 3n * FEE;
const APPEAL_FEE = 5n * FEE;
const MIN_WORKER_STAKE = 100_000n;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type View = any;
const view = async (who: Key, id: string): Promise<View> =>
  (await patient(who, 'GET', `/contracts/${id}`)).json;

async function waitFor(who: Key, id: string, what: string, ok: (v: View) => boolean, ms = 60_000) {
  const until = Date.now() + ms;
  for (;;) {
    const v = await view(who, id);
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`${id}: waited ${ms} ms for ${what}; status ${v?.status}`);
    await sleep(400);
  }
}
const settled = (v: View) => typeof v?.status === 'string' && v.status.startsWith('settled-');
const seated = (v: View) => v?.backupAgents?.length > 0 && v.panelPending !== true;

async function lockStake(ba: Key, amount: bigint) {
  const res = await patient(ba, 'POST', '/eligibility/lock', { amount: amount.toString() });
  if (res.status !== 200) throw new Error(`lock: ${res.status} ${JSON.stringify(res.json)}`);
}
const unlockAll = (ba: Key) => patient(ba, 'POST', '/eligibility/unlock', {});

/** A direct-award contract, accepted and delivered: its panel is drawn (standard) or it is under review. */
async function delivered(mode: 'standard' | 'privacy-preserving', extraClient = 0n, extraWorker = 0n) {
  const client = await fundedKey(PRICE + (mode === 'standard' ? PANEL_FEE : 0n) + extraClient);
  const worker = await fundedKey(WORKER_STAKE + extraWorker);
  const id = await create(
    client,
    terms({ awardMethod: 'direct', worker: worker.address, verificationMode: mode }),
  );
  const accepted = await patient(worker, 'POST', `/contracts/${id}/accept`, {});
  const sent = await patient(worker, 'POST', `/contracts/${id}/deliveries`, DELIVERY);
  if (accepted.status !== 200 || sent.status !== 200)
    throw new Error(`accept ${accepted.status} / deliver ${sent.status}: ${JSON.stringify(sent.json)}`);
  return { id, client, worker };
}

/** The operator's verdicts as trusted arbiter. */
const decide = (id: string, verdicts: string[]) =>
  send(
    undefined,
    'POST',
    `/operator/contracts/${id}/verdicts`,
    { verdicts },
    { headers: { Authorization: `Bearer ${target.operatorToken}` } },
  );
const vote = (ba: Key, id: string) =>
  patient(ba, 'POST', `/contracts/${id}/votes`, { votes: ['met', 'met'] });
const waive = (who: Key, id: string) => patient(who, 'POST', `/contracts/${id}/appeals`, { waive: true });
/** The OCT a Backup Agent was minted for its votes (rewards are OCT, never USDC). */
const oct = async (k: Key): Promise<bigint> =>
  BigInt((await patient(k, 'GET', `/agents/${k.address}/balances`)).json.balances.OCT?.available ?? 0);
const total = async (k: Key) => {
  const b = await balances(k);
  return b.available + b.held;
};

/** 3: a dispute on a deployment with nobody eligible waits, then the operator decides. */
async function emptyRegistry() {
  const { id, client, worker } = await delivered('privacy-preserving', DISPUTE_BOND + PANEL_FEE);
  const disputed = await patient(client, 'POST', `/contracts/${id}/disputes`, {});
  const waiting = await view(client, id);
  const heldWhileWaiting = (await balances(client)).held;
  const early = await decide(id, ['met', 'not met']);
  const arbiter = await waitFor(client, id, 'awaitingArbiter', (v) => v.awaitingArbiter === true);
  const decided = await decide(id, ['met', 'not met']);
  const final = await waitFor(client, id, 'settled', settled);
  const [cb, wb] = [await balances(client), await balances(worker)];
  report(
    'empty registry pays in full',
    'a dispute on a fresh deployment, nobody eligible; the operator decides after the recruitment window',
    disputed.status === 200 &&
      waiting.status === 'disputed' &&
      waiting.panelPending === true &&
      heldWhileWaiting === PRICE + DISPUTE_BOND + PANEL_FEE &&
      early.status === 409 &&
      arbiter.status === 'disputed' &&
      decided.status === 200 &&
      final.status === 'settled-partially-met' &&
      final.backupAgents.length === 0 &&
      cb.held === 0n &&
      cb.available >= DISPUTE_BOND + PANEL_FEE &&
      wb.held === 0n,
    `dispute → ${disputed.status} ${waiting.status} panelPending=${waiting.panelPending}, client held ${heldWhileWaiting} (escrow + bond + panel fee); ` +
      `verdicts before the window → ${early.status} ${early.json?.error?.code}; awaitingArbiter → verdicts ${decided.status}; ` +
      `${final.status}, panel ${final.backupAgents.length}; client ${cb.available}/${cb.held} (bond and fee back), worker ${wb.available}/${wb.held}`,
  );
  return cb.available;
}

/** 1: puppets at the minimum stake against honest agents at ten times it, over `n` auctions. */
async function capture(n: number) {
  const puppets = await Promise.all([0, 1, 2].map(() => fundedKey(STAKE + 10n * USDC)));
  const honest = await Promise.all([0, 1, 2].map(() => fundedKey(10n * STAKE)));
  for (const p of puppets) await lockStake(p, STAKE);
  for (const h of honest) await lockStake(h, 10n * STAKE);
  const everyone = [...puppets, ...honest];
  const byAddress = new Map(everyone.map((k) => [k.address, k]));
  const puppetSet = new Set(puppets.map((p) => p.address));
  const one = async () => {
    const client = await fundedKey(5n * USDC + PANEL_FEE);
    const worker = await fundedKey(USDC);
    const id = await create(
      client,
      terms({ contractType: 'auction', amount: (5n * USDC).toString(), verificationMode: 'standard' }),
    );
    for (const p of puppets)
      await patient(p, 'POST', `/contracts/${id}/quotes`, { price: (4n * USDC).toString() });
    await patient(worker, 'POST', `/contracts/${id}/quotes`, { price: PRICE.toString() });
    const award = await patient(client, 'POST', `/contracts/${id}/award`, {});
    if (award.json?.worker !== worker.address) throw new Error(`award: ${JSON.stringify(award.json)}`);
    await patient(worker, 'POST', `/contracts/${id}/deliveries`, DELIVERY);
    const panel: string[] = (await waitFor(client, id, 'a panel', seated)).backupAgents;
    for (const a of panel) await vote(byAddress.get(a)!, id);
    await waitFor(client, id, 'resolved', (v) => v.status === 'resolved');
    await waive(client, id);
    await waive(worker, id);
    await waitFor(client, id, 'settled', settled);
    return panel.filter((a) => puppetSet.has(a)).length;
  };
  const counts: number[] = [];
  for (let i = 0; i < n; i += 5)
    counts.push(...(await Promise.all(Array.from({ length: Math.min(5, n - i) }, one))));
  const majorities = counts.filter((c) => c >= 2).length;
  const seatShare = counts.reduce((a, b) => a + b, 0) / (3 * n);
  const unlocks = await Promise.all(everyone.map(unlockAll));
  const after = await Promise.all(everyone.map(balances));
  report(
    'seat your own puppets',
    `${n} standard auctions; 3 puppets lock ${STAKE} and quote, 3 honest agents lock ${10n * STAKE}`,
    majorities <= Math.ceil(n / 4) &&
      after.every((b) => b.held === 0n) &&
      unlocks.every((u) => u.status === 200),
    `puppet majority in ${majorities}/${n} panels, puppet seats ${(seatShare * 100).toFixed(1)}% (stake share 9.1%); ` +
      `puppets per panel ${counts.join(',')}; after unlocking all, held ${after.map((b) => b.held).join(',')}`,
  );
  return { contracts: n, puppetMajorities: majorities, puppetSeatShare: seatShare };
}

/** 2 and 4: six contracts share a registry of three; one never votes, one unlocks while seated. */
async function silentMemberAndUnlockRace() {
  const bas = await Promise.all([0, 1, 2].map(() => fundedKey(STAKE)));
  for (const b of bas) await lockStake(b, STAKE);
  const [voter, racer, silent] = bas as [Key, Key, Key];
  const contracts = await Promise.all(Array.from({ length: 6 }, () => delivered('standard')));
  const panels = await Promise.all(contracts.map((c) => waitFor(c.client, c.id, 'a panel', seated)));
  const allSeated = panels.every((p) => p.backupAgents.length === 3);
  const beforeRace = await balances(racer);
  const race = await Promise.all(
    Array.from({ length: 8 }, () => send(racer, 'POST', '/eligibility/unlock', {})),
  );
  const afterRace = await balances(racer);
  const raceCodes = [...new Set(race.map((r) => r.status))];
  const released = race.reduce((s, r) => s + BigInt(r.status === 200 ? (r.json?.released ?? 0) : 0), 0n);
  report(
    'unlock races the seats',
    'a BA seated on 6 panels fires 8 concurrent unlocks of everything',
    !race.some((r) => r.status >= 500) &&
      afterRace.held === 6n * BA_BOND &&
      afterRace.available === beforeRace.available + STAKE - 6n * BA_BOND,
    `statuses ${raceCodes.join(',')}; released ${released}; before ${beforeRace.available}/${beforeRace.held}, ` +
      `after ${afterRace.available}/${afterRace.held} (6 seats × ${BA_BOND})`,
  );
  for (const c of contracts) {
    await vote(voter, c.id);
    await vote(racer, c.id);
  }
  await Promise.all(
    contracts.map((c) => waitFor(c.client, c.id, 'resolved', (v) => v.status === 'resolved')),
  );
  for (const c of contracts) {
    await waive(c.client, c.id);
    await waive(c.worker, c.id);
  }
  const finals = await Promise.all(contracts.map((c) => waitFor(c.client, c.id, 'settled', settled)));
  const silentTotal = await total(silent);
  const slashed = STAKE - silentTotal;
  const parties = await Promise.all(contracts.flatMap((c) => [balances(c.client), balances(c.worker)]));
  const [voterUsdc, racerUsdc] = [await total(voter), await total(racer)];
  const [voterOct, silentOct] = [await oct(voter), await oct(silent)];
  report(
    'one silent member freezes money',
    '6 standard contracts drawn from a registry of 3; one BA never votes; the voting window passes',
    allSeated &&
      finals.every((f) => f.status === 'settled-fully-met') &&
      slashed > 0n &&
      slashed <= 6n * BA_BOND &&
      slashed % 6n === 0n &&
      voterUsdc === STAKE + 6n * FEE &&
      racerUsdc === STAKE + 6n * FEE &&
      voterOct === 12n * USDC &&
      silentOct === 0n &&
      parties.every((b) => b.held === 0n),
    `statuses ${[...new Set(finals.map((f) => f.status))].join(',')}; silent BA lost ${slashed} (${slashed / 6n} a seat, ` +
      `at most ${BA_BOND}), its 6 fee shares to the Treasury; voter ${voterUsdc} USDC (stake + 6 fee shares) + ${voterOct} OCT, racer ${racerUsdc}, silent ${silentOct} OCT; parties' held all 0: ${parties.every((b) => b.held === 0n)}`,
  );
  await Promise.all(bas.map(unlockAll));
  return { silentToTreasury: (slashed + 6n * FEE).toString(), unlockRaceStatuses: raceCodes };
}

/** The appeal route's refusals change nothing; an appeal that finds no panel goes to the operator; waivers settle. */
async function appeals() {
  const bas = await Promise.all([0, 1, 2].map(() => fundedKey(STAKE)));
  for (const b of bas) await lockStake(b, STAKE);
  const [a, b, c] = await Promise.all([
    delivered('standard', APPEAL_BOND + APPEAL_FEE),
    delivered('standard', APPEAL_BOND + APPEAL_FEE),
    delivered('standard'),
  ]);
  for (const x of [a, b, c]) {
    await waitFor(x.client, x.id, 'a panel', seated);
    for (const ba of bas) await vote(ba, x.id);
  }
  for (const x of [a, b, c]) await waitFor(x.client, x.id, 'resolved', (v) => v.status === 'resolved');

  const snapshot = async () =>
    JSON.stringify(
      [(await view(a.client, a.id)).status, await balances(a.client), await balances(a.worker)].map((x) =>
        typeof x === 'string' ? x : `${x.available}/${x.held}`,
      ),
    );
  const before = await snapshot();
  const stranger = await fundedKey(USDC);
  const byStranger = await patient(stranger, 'POST', `/contracts/${a.id}/appeals`, {});
  const broke = await patient(a.worker, 'POST', `/contracts/${a.id}/appeals`, {});
  const unchanged = (await snapshot()) === before;
  const first = await patient(a.client, 'POST', `/contracts/${a.id}/appeals`, {});
  const second = await patient(a.client, 'POST', `/contracts/${a.id}/appeals`, {});
  const afterOther = await patient(a.worker, 'POST', `/contracts/${a.id}/appeals`, { waive: true });
  const heldAppealing = (await balances(a.client)).held;
  const arbiter = await waitFor(a.client, a.id, 'awaitingArbiter', (v) => v.awaitingArbiter === true);
  const decided = await decide(a.id, ['met', 'met']);
  const finalA = await waitFor(a.client, a.id, 'settled', settled);
  const clientA = await balances(a.client);
  report(
    'appeal abuse',
    'a stranger appeals, a party without the Appeal Bond appeals, the Client appeals twice, the Worker after it',
    byStranger.status === 403 &&
      broke.status === 402 &&
      unchanged &&
      first.status === 200 &&
      first.json?.status === 'disputed' &&
      second.status === 409 &&
      afterOther.status === 409 &&
      heldAppealing === PRICE + PANEL_FEE + APPEAL_BOND + APPEAL_FEE,
    `stranger → ${byStranger.status} ${byStranger.json?.error?.code}; worker without funds → ${broke.status}; ` +
      `state unchanged: ${unchanged}; client → ${first.status} ${first.json?.status}; again → ${second.status} ` +
      `${second.json?.error?.code}; worker waives after → ${afterOther.status} ${afterOther.json?.error?.code}; client held ${heldAppealing} (escrow + panel fee + Appeal Bond + appeal fee)`,
  );
  const baTotals = await Promise.all(bas.map(balances));
  report(
    'an appeal that finds no panel',
    'the appeal panel needs 5 agents outside the first panel; nobody else is eligible',
    arbiter.status === 'disputed' &&
      decided.status === 200 &&
      finalA.status === 'settled-fully-met' &&
      clientA.held === 0n &&
      clientA.available === APPEAL_FEE &&
      baTotals.every((x) => x.held === STAKE && x.available >= FEE),
    `awaitingArbiter after the window, verdicts → ${decided.status}; ${finalA.status}; client ${clientA.available}/` +
      `${clientA.held} (Appeal Bond to the Treasury: the verdict changed nothing; the appeal fee back); BAs ${baTotals.map((x) => `${x.available}/${x.held}`).join(', ')}`,
  );

  await waive(b.client, b.id);
  const waived = Date.now();
  await waive(b.worker, b.id);
  const finalB = await waitFor(b.client, b.id, 'settled', settled);
  const waitedMs = Date.now() - waived;
  report(
    'both parties waive',
    'the Client and the Worker waive the appeal',
    finalB.status === 'settled-fully-met' && waitedMs < APPEAL_WINDOW_MS / 2,
    `${finalB.status} ${waitedMs} ms after the first waiver (window ${APPEAL_WINDOW_MS} ms)`,
  );

  await waitFor(c.client, c.id, 'settled', settled, APPEAL_WINDOW_MS + 30_000);
  const beforeLate = await balances(c.client);
  const late = await patient(c.client, 'POST', `/contracts/${c.id}/appeals`, {});
  const afterLate = await balances(c.client);
  report(
    'an appeal after the window',
    'the Client appeals once the appeal window has passed',
    late.status === 409 && beforeLate.available === afterLate.available && afterLate.held === 0n,
    `→ ${late.status} ${late.json?.error?.code}; client ${afterLate.available}/${afterLate.held}`,
  );
  await Promise.all(bas.map(unlockAll));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Event = any;
const events = async (who: Key, id: string): Promise<Event[]> =>
  (await patient(who, 'GET', `/contracts/${id}/events`)).json?.events ?? [];
const firstAt = (log: Event[], type: string): number => {
  const e = log.find((x) => x.type === type);
  return e === undefined ? NaN : Date.parse(e.at);
};
/** `n` Backup Agents, each funded with and locking the eligibility stake. */
async function registry(n: number): Promise<Key[]> {
  const bas = await Promise.all(Array.from({ length: n }, () => fundedKey(STAKE)));
  for (const b of bas) await lockStake(b, STAKE);
  return bas;
}
const keyOf = (bas: Key[]) => new Map(bas.map((k) => [k.address, k]));

/**
 * Seat exhaustion: an attacker's two keys open standard-mode direct contracts at a price of one
 * micro-unit until every seat of a 3-agent registry (3 × 10 seats) is taken. Two honest contracts
 * delivered afterwards wait; the panels vote, the attacker never waives, so its seats are pinned
 * through the appeal window. The honest contracts must be seated within seconds of the first seats
 * freeing, in the order they started waiting, and the attacker must have paid ≥ k × panelFeePerSeat.
 */
async function seatExhaustion() {
  const bas = await registry(3);
  const byAddress = keyOf(bas);
  const n = Number((3n * STAKE) / BA_BOND / 3n);
  const attackerClient = await fundedKey(BigInt(n) * (1n + PANEL_FEE));
  const attackerWorker = await fundedKey(BigInt(n) * MIN_WORKER_STAKE);
  const junk: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = await create(
      attackerClient,
      terms({
        awardMethod: 'direct',
        worker: attackerWorker.address,
        verificationMode: 'standard',
        amount: '1',
      }),
    );
    await patient(attackerWorker, 'POST', `/contracts/${id}/accept`, {});
    await patient(attackerWorker, 'POST', `/contracts/${id}/deliveries`, DELIVERY);
    junk.push(id);
  }
  const junkPanels = await Promise.all(junk.map((id) => waitFor(attackerClient, id, 'a panel', seated)));
  const h1 = await delivered('standard');
  const h2 = await delivered('standard');
  const [w1, w2] = [await view(h1.client, h1.id), await view(h2.client, h2.id)];
  await sleep(2_000);
  const stillWaiting = (await view(h1.client, h1.id)).panelPending === true;
  for (const [i, id] of junk.entries())
    for (const a of junkPanels[i].backupAgents) await vote(byAddress.get(a)!, id);
  const settledJunk = await Promise.all(
    junk.map((id) => waitFor(attackerClient, id, 'settled', settled, APPEAL_WINDOW_MS + 60_000)),
  );
  const [p1, p2] = [
    await waitFor(h1.client, h1.id, 'a panel', seated, 30_000),
    await waitFor(h2.client, h2.id, 'a panel', seated, 30_000),
  ];
  const junkLogs = await Promise.all(junk.map((id) => events(attackerClient, id)));
  const freedAt = Math.min(...junkLogs.map((l) => firstAt(l, 'contract.settled')));
  const [seated1, seated2] = [
    firstAt(await events(h1.client, h1.id), 'contract.panel-drawn'),
    firstAt(await events(h2.client, h2.id), 'contract.panel-drawn'),
  ];
  const seatMs = junkLogs.reduce(
    (s, l) => s + 3 * (firstAt(l, 'contract.settled') - firstAt(l, 'contract.panel-drawn')),
    0,
  );
  for (const [h, p] of [
    [h1, p1],
    [h2, p2],
  ] as const) {
    for (const a of p.backupAgents) await vote(byAddress.get(a)!, h.id);
    await waitFor(h.client, h.id, 'resolved', (v) => v.status === 'resolved' || settled(v));
    await waive(h.client, h.id);
    await waive(h.worker, h.id);
  }
  const honestFinal = await Promise.all([h1, h2].map((h) => waitFor(h.client, h.id, 'settled', settled)));
  const k = BigInt(3 * n);
  const spent =
    funded.get(attackerClient.address)!.deposited +
    funded.get(attackerWorker.address)!.deposited -
    (await total(attackerClient)) -
    (await total(attackerWorker));
  const seatHours = seatMs / 3_600_000;
  const perSeatHour = Number(spent) / 1e6 / seatHours;
  const lag1 = seated1 - freedAt;
  const baPaid = (await Promise.all(bas.map(total))).map((t) => t - STAKE);
  report(
    'seat exhaustion',
    `an attacker's two keys open ${n} standard direct contracts at price 1 and take all ${k} seats of a 3-agent registry; ` +
      'two honest contracts are delivered after; the attacker never waives',
    junkPanels.every((p) => p.backupAgents.length === 3) &&
      w1.panelPending === true &&
      w2.panelPending === true &&
      stillWaiting &&
      settledJunk.every((v) => v.status === 'settled-fully-met') &&
      lag1 >= 0 &&
      lag1 < 5_000 &&
      seated1 <= seated2 &&
      honestFinal.every((v) => v.status === 'settled-fully-met') &&
      spent >= k * FEE &&
      baPaid.every((x) => x > 0n),
    `honest contracts waited panelPending (${w1.panelPending}, ${w2.panelPending}); first junk settled → honest #1 seated ` +
      `${lag1} ms later, #2 ${seated2 - freedAt} ms (in waiting order: ${seated1 <= seated2}); attacker spent ${spent} ` +
      `for ${k} seats (≥ k × ${FEE} = ${k * FEE}: ${spent >= k * FEE}) pinned ${seatHours.toFixed(4)} seat-hours → ` +
      `${perSeatHour.toFixed(1)} USDC per seat-hour (a day per seat costs ≥ ${FEE} per panel it pins); BAs earned ${baPaid.join(',')}`,
  );
  await Promise.all(bas.map(unlockAll));
  return {
    seatsPinned: Number(k),
    attackerSpent: spent.toString(),
    seatHoursPinned: Number(seatHours.toFixed(4)),
    usdcPerSeatHour: Number(perSeatHour.toFixed(1)),
    honestSeatedAfterFreeMs: [lag1, seated2 - freedAt],
  };
}

/** The panels and silent members of a contract's void rounds, from its event log. */
async function voids(who: Key, id: string) {
  const log = await events(who, id);
  const voided = log.filter((e) => e.type === 'contract.panel-voided');
  const drawn = log.filter((e) => e.type === 'contract.panel-drawn');
  return { log, voided, drawn, silent: new Set<string>(voided.flatMap((e) => e.silent as string[])) };
}

/** Reads a contract until it awaits the arbiter (or settles), noting every status it passes through. */
async function watchUntilArbiter(client: Key, id: string): Promise<{ statuses: Set<string>; v: View }> {
  const statuses = new Set<string>();
  const until = Date.now() + RECRUITMENT_WINDOW_MS + 60_000;
  for (;;) {
    const v = await view(client, id);
    statuses.add(v.status);
    if (v.awaitingArbiter === true || settled(v) || Date.now() > until) return { statuses, v };
    await sleep(400);
  }
}

/**
 * A silent panel on a disputed contract: a registry of 6, the first panel never votes, nor the one
 * drawn after it; the escrow is never paid, the Dispute Bond never slashed, each void round redraws
 * without the silent, and once nobody is left and the window passes the operator decides.
 */
async function silentDisputePanel(expectedClientAfterArbiter: bigint) {
  const bas = await registry(6);
  const { id, client, worker } = await delivered('privacy-preserving', DISPUTE_BOND + PANEL_FEE);
  const disputed = await patient(client, 'POST', `/contracts/${id}/disputes`, {});
  const { statuses, v } = await watchUntilArbiter(client, id);
  const heldAtArbiter = (await balances(client)).held;
  const decided = await decide(id, ['met', 'not met']);
  const final = await waitFor(client, id, 'settled', settled);
  const { voided, drawn, silent, log } = await voids(client, id);
  const firstPanel = new Set<string>(drawn[0]?.panel ?? []);
  const redrawnWithout = drawn.length >= 2 && (drawn[1].panel as string[]).every((a) => !firstPanel.has(a));
  const baTotals = await Promise.all(bas.map(async (b) => ({ a: b.address, t: await total(b) })));
  const slashedRight = baTotals.every((x) => x.t === (silent.has(x.a) ? STAKE - BA_BOND : STAKE));
  const [cb, wb] = [await balances(client), await balances(worker)];
  report(
    'a silent dispute panel',
    'a disputed privacy-preserving contract, a registry of 6; no panel ever votes; the operator decides after the window',
    disputed.status === 200 &&
      !statuses.has('settled-fully-met') &&
      v.awaitingArbiter === true &&
      heldAtArbiter === PRICE + DISPUTE_BOND + PANEL_FEE &&
      voided.length >= 2 &&
      redrawnWithout &&
      silent.size === 6 &&
      slashedRight &&
      decided.status === 200 &&
      final.status === 'settled-partially-met' &&
      cb.held === 0n &&
      cb.available === expectedClientAfterArbiter &&
      wb.held === 0n,
    `statuses seen ${[...statuses].join(',')}; ${drawn.length} panels drawn, ${voided.length} voided, second drawn without the first: ` +
      `${redrawnWithout}; silent ${silent.size}, each lost ${BA_BOND}: ${slashedRight}; client held ${heldAtArbiter} at the arbiter ` +
      `(escrow + bond + fee); verdicts → ${decided.status}; ${final.status}; client ${cb.available}/${cb.held} ` +
      `(= the empty-registry arbiter outcome ${expectedClientAfterArbiter}: bond and fee back); events ${log.map((e) => e.type.replace('contract.', '')).join(' ')}`,
  );
  await Promise.all(bas.map(unlockAll));
  return BigInt(silent.size) * BA_BOND;
}

/**
 * A silent appeal panel: a first panel finds both criteria not met; the Worker appeals; the appeal
 * panel of 5 never votes, nor can one be drawn again; the first panel's verdict must stand until the
 * operator decides, and the operator's confirmation settles it none met.
 */
async function silentAppealPanel() {
  const bas = await registry(8);
  const byAddress = keyOf(bas);
  const { id, client, worker } = await delivered('standard', 0n, APPEAL_BOND + APPEAL_FEE);
  const first: string[] = (await waitFor(client, id, 'a panel', seated)).backupAgents;
  for (const a of first)
    await patient(byAddress.get(a)!, 'POST', `/contracts/${id}/votes`, { votes: ['not met', 'not met'] });
  await waitFor(client, id, 'resolved', (v) => v.status === 'resolved');
  const appealed = await patient(worker, 'POST', `/contracts/${id}/appeals`, {});
  const { statuses, v } = await watchUntilArbiter(client, id);
  const decided = await decide(id, ['not met', 'not met']);
  const final = await waitFor(client, id, 'settled', settled);
  const { voided, silent, log } = await voids(client, id);
  const firstSet = new Set(first);
  const baTotals = await Promise.all(bas.map(async (b) => ({ a: b.address, t: await total(b) })));
  const firstPaid = baTotals.filter((x) => firstSet.has(x.a)).every((x) => x.t === STAKE + FEE);
  const silentSlashed = baTotals.filter((x) => silent.has(x.a)).every((x) => x.t === STAKE - BA_BOND);
  const wb = await balances(worker);
  const cb = await balances(client);
  report(
    'a silent appeal panel',
    'a first panel finds not met, the Worker appeals, the appeal panel of 5 never votes (registry of 8)',
    appealed.status === 200 &&
      !statuses.has('settled-fully-met') &&
      v.awaitingArbiter === true &&
      voided.length >= 1 &&
      silent.size === 5 &&
      [...silent].every((a) => !firstSet.has(a)) &&
      silentSlashed &&
      firstPaid &&
      decided.status === 200 &&
      final.status === 'settled-none-met' &&
      wb.held === 0n &&
      wb.available === APPEAL_FEE &&
      cb.held === 0n,
    `appeal → ${appealed.status}; statuses seen ${[...statuses].join(',')}; ${voided.length} appeal round(s) voided, ` +
      `${silent.size} silent, each lost ${BA_BOND}: ${silentSlashed}; first panel paid its fee share: ${firstPaid}; ` +
      `awaitingArbiter ${v.awaitingArbiter}, verdicts → ${decided.status}; ${final.status}; worker ${wb.available}/${wb.held} ` +
      `(appeal fee back, Appeal Bond kept); client ${cb.available}/${cb.held}; events ${log.map((e) => e.type.replace('contract.', '')).join(' ')}`,
  );
  await Promise.all(bas.map(unlockAll));
  // To the Treasury: the silent seats, the Appeal Bond, the Worker Stake's share the Client does not get.
  return BigInt(silent.size) * BA_BOND + APPEAL_BOND + (WORKER_STAKE * 2_000n) / 10_000n;
}

/**
 * Once every contract is terminal and every stake unlocked nothing is held, and what the agents lost
 * is exactly what the rules sent to the Treasury: the silent seats' slashes and fee shares, the Appeal
 * Bonds of appeals that changed nothing and the Treasury's share of a slashed Worker Stake (the panel
 * fees of panels that voted went to their BAs, who are funded keys too; the fees of panels that never
 * decided went back to their payers).
 */
async function books(expectedToTreasury: bigint) {
  const rows = await Promise.all([...funded.values()].map(async (f) => ({ f, b: await balances(f.key) })));
  const deposited = rows.reduce((s, r) => s + r.f.deposited, 0n);
  const remaining = rows.reduce((s, r) => s + r.b.available + r.b.held, 0n);
  const held = rows.filter((r) => r.b.held !== 0n);
  report(
    'the books',
    `${rows.length} funded keys, every contract terminal, every stake unlocked`,
    held.length === 0 && deposited - remaining === expectedToTreasury,
    `deposited ${deposited}, left with the agents ${remaining} (net to the Treasury ${deposited - remaining}, the rules moved ${expectedToTreasury}); ` +
      `keys still holding: ${held.length}`,
  );
  return {
    keys: rows.length,
    deposited: deposited.toString(),
    netToTreasury: (deposited - remaining).toString(),
  };
}

async function main() {
  const nArg = process.argv.indexOf('--contracts');
  const n = nArg >= 0 ? Number(process.argv[nArg + 1]) : 10;
  const params = {
    baVotingWindow: VOTING_WINDOW_MS,
    baRecruitmentWindow: RECRUITMENT_WINDOW_MS,
    appealWindow: APPEAL_WINDOW_MS,
  };
  await runSession({ OPENCONTRACT_PARAMS: JSON.stringify(params) }, async () => {
    const { timings, timed } = phaseTimer();
    const arbiterClient = await timed('emptyRegistry', emptyRegistry);
    const captured = await timed('capture', () => capture(n));
    const silent = await timed('silentMember', silentMemberAndUnlockRace);
    await timed('appeals', appeals);
    const exhaustion = await timed('seatExhaustion', seatExhaustion);
    const silentDispute = await timed('silentDisputePanel', () => silentDisputePanel(arbiterClient));
    const silentAppeal = await timed('silentAppealPanel', silentAppealPanel);
    const money = await books(BigInt(silent.silentToTreasury) + APPEAL_BOND + silentDispute + silentAppeal);
    return { params, secondsPerAttack: timings, capture: captured, ...silent, exhaustion, money };
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
