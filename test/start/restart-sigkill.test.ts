// A restart loses nothing, as a process: the real `npm start` tree (dev server persisted to its
// file, worker, API) holds four contracts — created; matched, with a delivery deadline that passes
// while everything is down; under review; disputed, with two of three votes in — when every process
// of the tree is SIGKILLed at once. After the deadline has passed, `npm start` runs again on the same
// data dir, and each contract goes on where it was: the missed deadline fires once (one cancellation
// event, one stake slash), the last vote completes the dispute, the Client approves the delivery
// under review, the Worker accepts the created one. Balances are exactly what the rules give, the
// ledger audit finds no transfer posted twice, and the nonce and idempotency records survived.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { dataFile } from '../../store/data-files';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { agentOwner, openLedger, type Balances } from '../../store/ledger';
import { createAgentClient, createOperatorClient, randomPrivateKey } from '../../sdk/typescript';
import type { Verdict } from '../../sdk/typescript/types';
import { serverPaths } from '../../temporal.config';
import { DELIVERY, fixedTerms } from '../e2e/support';
import { freePort } from '../support/postgres';
import { processGroupMembers, startServiceTree, type ServiceTree } from '../support/service-tree';
import { HOUR, PRICE, SECOND } from '../support/fixtures';
import { eventually } from '../support/eventually';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OPERATOR_TOKEN = 'restart-operator-token-0123456789';
// Far enough for the setup on a loaded machine, near enough to keep the test short.
const DELIVERY_IN = 60 * SECOND;

// Small BA amounts so the panel's money is easy to follow; a long voting window (it must not fire).
const PARAMS = {
  baEligibilityStake: '5000000',
  baBond: '1000000',
  rewardPerCriterion: '1000000',
  baVotingWindow: HOUR,
  // Nobody appeals the tally: it settles once this short window passes.
  appealWindow: 2_000,
};
const BA_STAKE = 5_000_000n;
const BA_FUNDS = 8_000_000n;
const CLIENT_FUNDS = 20_000_000n;
const WORKER_FUNDS = 1_000_000n;
// The defaults of docs/protocol.md §2 for the rest.
const bps = (amount: bigint, points: number) => (amount * BigInt(points)) / 10_000n;
const STAKE = bps(PRICE, 1000);
const ABSENT_TO_CLIENT = bps(STAKE, 8000);
const ABSENT_TO_TREASURY = STAKE - ABSENT_TO_CLIENT;
const DISPUTE_BOND = bps(PRICE, 500);
/** The panel fee the dispute brings (panelFeePerSeat 200000 × 3 seats), paid evenly to the BAs who vote. */
const FEE_SHARE = 200_000n;
const PANEL_FEE = 3n * FEE_SHARE;

const usdc = (available: bigint, held = 0n) => ({ available, held });

test(
  'SIGKILL of the whole `npm start` tree mid-contract: every contract goes on, no money moves twice',
  { timeout: 420_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oc-sigkill-'));
    const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TEMPORAL_'))),
      PORT: String(port),
      HOST: '127.0.0.1',
      OPENCONTRACT_DATA_DIR: dir,
      OPENCONTRACT_TEMPORAL_PORT: String(temporalPort),
      OPENCONTRACT_TEMPORAL_UI_PORT: String(uiPort),
      OPENCONTRACT_PARAMS: JSON.stringify(PARAMS),
      OPERATOR_TOKEN,
      VAULT_MASTER_KEY: '3c'.repeat(32),
      TEMPORAL_CLI_PATH: serverPaths.cli,
      LOG_LEVEL: 'WARN',
    };
    let tree: ServiceTree | undefined;
    const start = async () => {
      tree = startServiceTree({ cwd: root, env });
      await tree.healthy(url);
    };
    try {
      await start();
      const operator = createOperatorClient({ baseUrl: url, token: OPERATOR_TOKEN });
      const agent = () => createAgentClient({ baseUrl: url, privateKey: randomPrivateKey(), expiresIn: 300 });
      const client = agent();
      const [w1, w2, w3, w4] = [agent(), agent(), agent(), agent()];
      const bas = [agent(), agent(), agent()];
      await operator.deposit({ address: client.address, amount: CLIENT_FUNDS.toString() });
      for (const w of [w1, w2, w3, w4])
        await operator.deposit({ address: w.address, amount: WORKER_FUNDS.toString() });
      for (const ba of bas) await operator.deposit({ address: ba.address, amount: BA_FUNDS.toString() });
      assert.equal((await client.getParams()).baBond, PARAMS.baBond);

      // The last signed request before the kill, kept byte for byte to replay after the restart.
      let kept: { url: string; init: RequestInit } | undefined;
      const keeping = createAgentClient({
        baseUrl: url,
        privateKey: randomPrivateKey(),
        expiresIn: 300,
        fetch: (u, init) => {
          kept = { url: u, init };
          return fetch(u, init);
        },
      });
      await operator.deposit({ address: keeping.address, amount: BA_FUNDS.toString() });
      await keeping.lockEligibility(BA_STAKE.toString());
      for (const ba of bas) await ba.lockEligibility(BA_STAKE.toString());
      const replayed = kept!;

      // Created, with an idempotency key: retried after the restart, it must be the same contract.
      const createdTerms = fixedTerms(w1.address);
      const created = await client.createContract(createdTerms, { idempotencyKey: 'restart-created-1' });

      // Under review (privacy-preserving: the Client approves or disputes).
      const { contractId: reviewed } = await client.createContract(fixedTerms(w3.address));
      await w3.accept(reviewed);
      await w3.deliver(reviewed, DELIVERY);

      // Disputed, two of three votes in. The eligible agents are the three BAs and `keeping`:
      // the panel is whichever three the draw picks.
      const { contractId: disputed } = await client.createContract(fixedTerms(w4.address));
      await w4.accept(disputed);
      await w4.deliver(disputed, DELIVERY);
      const disputedView = await client.dispute(disputed, ['met', 'not met']);
      assert.equal(disputedView.status, 'disputed');
      const panelAddresses = disputedView.view === 'party' ? disputedView.backupAgents : [];
      assert.equal(panelAddresses.length, 3);
      const everyBa = [...bas, keeping];
      const panel = panelAddresses.map((a) => everyBa.find((b) => b.address === a)!);
      const VOTES: Verdict[] = ['met', 'met'];
      await panel[0]!.vote(disputed, VOTES);
      await panel[1]!.vote(disputed, VOTES);

      // Matched, its delivery deadline a few seconds away: it passes while the tree is dead.
      const now = Date.now();
      const at = (ms: number) => new Date(now + ms).toISOString();
      const { contractId: absent } = await client.createContract({
        ...fixedTerms(w2.address),
        deadlines: {
          match: at(40 * SECOND),
          withdrawal: at(41 * SECOND),
          delivery: at(DELIVERY_IN),
          review: at(HOUR),
        },
      });
      assert.equal((await w2.accept(absent)).status, 'matched');
      const deliveryDeadline = now + DELIVERY_IN;

      const statusOf = async (id: string) => (await client.getContract(id)).status;
      assert.deepEqual(await Promise.all([created.contractId, absent, reviewed, disputed].map(statusOf)), [
        'created',
        'matched',
        'under-review',
        'disputed',
      ]);

      // SIGKILL to every process in the group: npm, the service, the worker, the dev server.
      const pgid = tree!.child.pid!;
      const members = processGroupMembers(pgid);
      assert.ok(members.length >= 3, `expected npm, node and the dev server; found ${members.join(', ')}`);
      const killedAt = Date.now();
      assert.ok(
        killedAt < deliveryDeadline,
        'the delivery deadline passed before the kill: the setup was too slow',
      );
      await tree!.signalAll('SIGKILL');
      await eventually(
        async () => processGroupMembers(pgid),
        (left) => left.length === 0,
        10_000,
      );
      assert.equal(
        await fetch(`${url}/health`).then(
          () => 'answered',
          () => 'down',
        ),
        'down',
      );

      // Down past the deadline, then the same command on the same data dir.
      await new Promise((r) => setTimeout(r, Math.max(0, deliveryDeadline + 3 * SECOND - Date.now())));
      const restartedAt = Date.now();
      await start();
      // Where they were: nothing but the missed deadline has moved.
      assert.deepEqual(await Promise.all([created.contractId, reviewed, disputed].map(statusOf)), [
        'created',
        'under-review',
        'disputed',
      ]);

      // The missed deadline fires (once): cancelled-absent.
      await eventually(
        () => statusOf(absent),
        (s) => s === 'cancelled-absent',
        120_000,
      );
      // The last vote completes the dispute; the Client approves; the Worker accepts.
      await panel[2]!.vote(disputed, VOTES);
      await client.approve(reviewed);
      assert.equal((await w1.accept(created.contractId)).status, 'matched');
      for (const id of [disputed, reviewed]) {
        await eventually(
          () => statusOf(id),
          (s) => s === 'settled-fully-met',
          120_000,
        );
      }

      // The nonce store survived: the request signed before the kill is refused as a replay.
      const replay = await fetch(replayed.url, replayed.init);
      assert.equal(replay.status, 401);
      const refusal = (await replay.json()) as { error: { details?: { reason?: string } } };
      assert.equal(refusal.error.details?.reason, 'nonce_reused');
      // The idempotency record survived: the keyed create answers the same contract, holds no second escrow.
      const again = await client.createContract(createdTerms, { idempotencyKey: 'restart-created-1' });
      assert.equal(again.contractId, created.contractId);

      // Each event happened once.
      const count = async (id: string, type: string) =>
        (await client.getEvents(id)).events.filter((e) => e.type === type).length;
      const cancellations = (await client.getEvents(absent)).events.filter(
        (e) => e.type === 'contract.cancelled',
      );
      assert.equal(cancellations.length, 1);
      assert.ok(Date.parse(cancellations[0]!.at) >= restartedAt, 'the deadline fired after the restart');
      assert.equal(await count(disputed, 'contract.resolved'), 1);
      assert.equal(await count(disputed, 'contract.settled'), 1);
      assert.equal(await count(reviewed, 'contract.settled'), 1);
      assert.equal(await count(created.contractId, 'contract.matched'), 1);
      assert.equal((await client.getVotes(disputed)).rows.length, 3 * VOTES.length);

      // Exact balances: the Client paid three prices (one still in escrow), the disputed bond
      // (an unfounded dispute: slashed) and its panel fee (to the BAs, who all voted), and got the absent
      // Worker's slash.
      await tree!.signalAll('SIGTERM');
      tree = undefined;

      const ledger = await openLedger({ kind: 'sqlite', path: dataFile(dir, 'ledger') });
      try {
        const of = async (address: string): Promise<Balances> => ledger.balances(agentOwner(address));
        assert.deepEqual(
          (await of(client.address)).USDC,
          usdc(CLIENT_FUNDS - 3n * PRICE - DISPUTE_BOND - PANEL_FEE + ABSENT_TO_CLIENT, PRICE),
        );
        assert.deepEqual((await of(w1.address)).USDC, usdc(WORKER_FUNDS - STAKE, STAKE));
        assert.deepEqual((await of(w2.address)).USDC, usdc(WORKER_FUNDS - STAKE));
        assert.deepEqual((await of(w3.address)).USDC, usdc(WORKER_FUNDS + PRICE));
        assert.deepEqual((await of(w4.address)).USDC, usdc(WORKER_FUNDS + PRICE));
        for (const ba of everyBa) {
          const onPanel = panel.includes(ba);
          const b = await of(ba.address);
          assert.deepEqual(b.USDC, usdc(BA_FUNDS - BA_STAKE + (onPanel ? FEE_SHARE : 0n), BA_STAKE));
          assert.deepEqual(
            b.OCT,
            usdc(onPanel ? BigInt(VOTES.length) * BigInt(PARAMS.rewardPerCriterion) : 0n),
          );
        }
        assert.deepEqual((await ledger.balances('treasury')).USDC, usdc(ABSENT_TO_TREASURY + DISPUTE_BOND));

        // The audit: every asset sums to zero, each (operation, index) once, each hold closed at most
        // once and never for more than it held, one slash of the absent Worker's stake.
        const report = await ledger.audit();
        assert.equal(report.assets.USDC.sum, 0n);
        assert.equal(report.assets.OCT.sum, 0n);
        const db = new Database(dataFile(dir, 'ledger'), { readonly: true });
        try {
          const duplicates = db
            .prepare(
              'SELECT op_id, idx, COUNT(*) AS n FROM ledger_transfers GROUP BY op_id, idx HAVING n > 1',
            )
            .all();
          assert.deepEqual(duplicates, []);
          const overClosed = db
            .prepare(
              `SELECT h.hold_id, h.amount, SUM(c.amount) AS closed FROM ledger_transfers h
               JOIN ledger_transfers c ON c.hold_id = h.hold_id AND c.type IN ('post', 'void')
               WHERE h.type = 'pending' GROUP BY h.hold_id, h.amount HAVING SUM(c.amount) <> h.amount`,
            )
            .all();
          assert.deepEqual(overClosed, []);
        } finally {
          db.close();
        }
        const slashes = (await ledger.postingsByContract(absent)).filter(
          (p) => p.type === 'post' && p.holdKind === 'stake',
        );
        assert.deepEqual(
          slashes.map((p) => [p.credit, p.amount]).sort(),
          [
            [agentOwner(client.address), ABSENT_TO_CLIENT],
            ['treasury', ABSENT_TO_TREASURY],
          ].sort(),
        );
        assert.equal(
          (await ledger.holdsByContract(created.contractId)).filter((h) => h.kind === 'escrow').length,
          1,
        );
      } finally {
        await ledger.close();
      }
    } finally {
      if (tree) await tree.signalAll('SIGKILL');
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    }
  },
);
