// A black-box hostile session against the Backup Agent panel rules (docs/v2c.md), through HTTP only:
// the stake-weighted draw over the whole registry, seats that hold their bond, quorum and the trusted
// arbiter, appeals and waivers. It starts the real `npm start` tree with short windows, gives every
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
} from './session-kit';

const VOTING_WINDOW_MS = 8_000;
const RECRUITMENT_WINDOW_MS = 6_000;
const APPEAL_WINDOW_MS = 15_000;
const STAKE = 100n * USDC;
const BA_BOND = 10n * USDC;
const PRICE = (25n * USDC) / 10n;
const WORKER_STAKE = PRICE / 10n;
const DISPUTE_BOND = (PRICE * 500n) / 10_000n;
const APPEAL_BOND = PRICE / 10n;

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
  const client = await fundedKey(PRICE + extraClient);
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
  const { id, client, worker } = await delivered('privacy-preserving', DISPUTE_BOND);
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
      heldWhileWaiting === PRICE + DISPUTE_BOND &&
      early.status === 409 &&
      arbiter.status === 'disputed' &&
      decided.status === 200 &&
      final.status === 'settled-partially-met' &&
      final.backupAgents.length === 0 &&
      cb.held === 0n &&
      wb.held === 0n,
    `dispute → ${disputed.status} ${waiting.status} panelPending=${waiting.panelPending}, client held ${heldWhileWaiting}; ` +
      `verdicts before the window → ${early.status} ${early.json?.error?.code}; awaitingArbiter → verdicts ${decided.status}; ` +
      `${final.status}, panel ${final.backupAgents.length}; client ${cb.available}/${cb.held}, worker ${wb.available}/${wb.held}`,
  );
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
    const client = await fundedKey(5n * USDC);
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
      voterUsdc === STAKE &&
      racerUsdc === STAKE &&
      voterOct === 12n * USDC &&
      silentOct === 0n &&
      parties.every((b) => b.held === 0n),
    `statuses ${[...new Set(finals.map((f) => f.status))].join(',')}; silent BA lost ${slashed} (${slashed / 6n} a seat, ` +
      `at most ${BA_BOND}); voter ${voterUsdc} USDC + ${voterOct} OCT, racer ${racerUsdc}, silent ${silentOct} OCT; parties' held all 0: ${parties.every((b) => b.held === 0n)}`,
  );
  await Promise.all(bas.map(unlockAll));
  return { silentSlashed: slashed.toString(), unlockRaceStatuses: raceCodes };
}

/** The appeal route's refusals change nothing; an appeal that finds no panel goes to the operator; waivers settle. */
async function appeals() {
  const bas = await Promise.all([0, 1, 2].map(() => fundedKey(STAKE)));
  for (const b of bas) await lockStake(b, STAKE);
  const [a, b, c] = await Promise.all([
    delivered('standard', APPEAL_BOND),
    delivered('standard', APPEAL_BOND),
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
      heldAppealing === PRICE + APPEAL_BOND,
    `stranger → ${byStranger.status} ${byStranger.json?.error?.code}; worker without funds → ${broke.status}; ` +
      `state unchanged: ${unchanged}; client → ${first.status} ${first.json?.status}; again → ${second.status} ` +
      `${second.json?.error?.code}; worker waives after → ${afterOther.status} ${afterOther.json?.error?.code}; client held ${heldAppealing} (escrow + Appeal Bond)`,
  );
  const baTotals = await Promise.all(bas.map(balances));
  report(
    'an appeal that finds no panel',
    'the appeal panel needs 5 agents outside the first panel; nobody else is eligible',
    arbiter.status === 'disputed' &&
      decided.status === 200 &&
      finalA.status === 'settled-fully-met' &&
      clientA.held === 0n &&
      clientA.available === 0n &&
      baTotals.every((x) => x.held === STAKE),
    `awaitingArbiter after the window, verdicts → ${decided.status}; ${finalA.status}; client ${clientA.available}/` +
      `${clientA.held} (Appeal Bond to the Treasury: the verdict changed nothing); BAs ${baTotals.map((x) => `${x.available}/${x.held}`).join(', ')}`,
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

/**
 * Once every contract is terminal and every stake unlocked nothing is held, and what the agents lost
 * is exactly what the rules sent to the Treasury: the silent member's slashes and the Appeal Bond of
 * an appeal that changed nothing (the empty-registry dispute's money stays with its parties).
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
    const timings: Record<string, number> = {};
    const timed = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
      const started = Date.now();
      try {
        return await f();
      } finally {
        timings[name] = Math.round((Date.now() - started) / 1000);
      }
    };
    await timed('emptyRegistry', emptyRegistry);
    const captured = await timed('capture', () => capture(n));
    const silent = await timed('silentMember', silentMemberAndUnlockRace);
    await timed('appeals', appeals);
    const money = await books(BigInt(silent.silentSlashed) + APPEAL_BOND);
    return { params, secondsPerAttack: timings, capture: captured, ...silent, money };
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
