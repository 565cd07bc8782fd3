// The SQLite ledger on its own thread (store/ledger/thread-ledger.ts), where it differs from the
// store run on the caller's thread: errors cross as the same class with the same fields, a thread that
// dies fails its calls instead of hanging them and the retried calls move money once, and close ends
// the thread with the database closed cleanly. (Every other ledger suite runs against it too: stores.ts.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  LedgerError,
  LedgerThreadExitedError,
  agentOwner,
  openLedger,
  type Ledger,
  type LedgerOp,
} from '../../store/ledger';
import { openThreadLedger } from '../../store/ledger/thread-ledger';
import { asActivity } from '../../activities/invalid-input';
import { ApplicationFailure } from '@temporalio/common';

const alice = agentOwner('0x' + 'a'.repeat(40));
const bob = agentOwner('0x' + 'b'.repeat(40));

async function caught(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof Error, `not an Error: ${String(error)}`);
  return error;
}

/** What a caller can see of an error: its class, name, message and own fields. */
const seen = (error: Error) => ({
  class: error.constructor,
  name: error.name,
  message: error.message,
  fields: { ...error },
});

describe('the SQLite ledger on its own thread', () => {
  let dir: string;
  let count = 0;
  const path = () => join(dir, `ledger-${++count}.db`);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'oc-ledger-thread-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every refusal reaches the caller as the same error class, with the same fields', async () => {
    const funded = async (thread: boolean): Promise<Ledger> => {
      const ledger = await openLedger({ kind: 'sqlite', path: path(), thread });
      await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 100n });
      await ledger.hold({
        id: 'h1',
        owner: alice,
        asset: 'USDC',
        amount: 40n,
        holdKind: 'escrow',
        contractId: 'c1',
      });
      await ledger.voidHold({ id: 'v1', holdId: 'h1' });
      return ledger;
    };
    const refused: Array<(l: Ledger) => Promise<unknown>> = [
      (l) => l.transfer({ id: 't1', asset: 'USDC', from: alice, to: bob, amount: 101n }),
      (l) => l.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 99n }),
      (l) => l.voidHold({ id: 'v2', holdId: 'nope' }),
      (l) => l.voidHold({ id: 'v3', holdId: 'h1' }),
      (l) =>
        l.batch([
          {
            kind: 'hold',
            id: 'h2',
            owner: alice,
            asset: 'USDC',
            amount: 5n,
            holdKind: 'escrow',
            contractId: 'c2',
          },
          { kind: 'resolve', id: 'r2', holdId: 'h2', parts: [{ to: bob, amount: 4n }] },
        ]),
      (l) => l.deposit({ id: 'd2', asset: 'USDC', to: alice, amount: -1n }),
      (l) => l.panels.openPanel('c1', ['not an address']),
    ];
    const local = await funded(false);
    const threaded = await funded(true);
    try {
      for (const call of refused) {
        const expected = await caught(call(local));
        const actual = await caught(call(threaded));
        assert.deepEqual(seen(actual), seen(expected));
        assert.ok(actual instanceof expected.constructor);
      }
      const codes = await Promise.all(
        refused.slice(0, 5).map(async (call) => ((await caught(call(threaded))) as LedgerError).code),
      );
      assert.deepEqual(codes, [
        'InsufficientFunds',
        'IdempotencyConflict',
        'HoldNotFound',
        'HoldAlreadyResolved',
        'PartsMismatch',
      ]);
      // The activities map them as they map the store's own: a ledger rule is a non-retryable failure.
      const failure = await caught(asActivity(() => refused[0]!(threaded)));
      assert.ok(failure instanceof ApplicationFailure);
      assert.equal(failure.type, 'InsufficientFunds');
      assert.equal(failure.nonRetryable, true);
    } finally {
      await local.close();
      await threaded.close();
    }
  });

  test('a file that cannot be opened fails the open with the same error as on the caller’s thread', async () => {
    const missing = join(dir, 'no-such-directory', 'ledger.db');
    const expected = await caught(openLedger({ kind: 'sqlite', path: missing, thread: false }));
    const actual = await caught(openLedger({ kind: 'sqlite', path: missing, thread: true }));
    assert.deepEqual(seen(actual), seen(expected));
  });

  test('a thread that dies fails the calls in flight, and their retries move money exactly once', async () => {
    const ledger = await openThreadLedger(path());
    try {
      await ledger.deposit({ id: 'fund', asset: 'USDC', to: alice, amount: 1_000n });
      const ops: LedgerOp[] = Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? { kind: 'transfer', id: `t${i}`, asset: 'USDC', from: alice, to: bob, amount: 10n }
          : {
              kind: 'hold',
              id: `h${i}`,
              owner: alice,
              asset: 'USDC',
              amount: 5n,
              holdKind: 'escrow',
              contractId: `c${i}`,
            },
      );
      const inFlight = ops.map((op) =>
        ledger.batch([op]).then(
          () => 'answered',
          (e: unknown) => e,
        ),
      );
      await ledger.terminate();
      const outcomes = await Promise.all(inFlight);
      const failed = outcomes.filter((o) => o !== 'answered');
      assert.ok(failed.length > 0, 'no call was in flight when the thread died');
      for (const error of failed) {
        assert.ok(error instanceof LedgerThreadExitedError, String(error));
        assert.ok(!(error instanceof LedgerError), 'a dead thread must be retryable, not a ledger rule');
      }

      // The next call starts a new thread on the same file; retrying every call applies each once.
      const retried = await Promise.all(ops.map((op) => ledger.batch([op])));
      // A call answered before the thread died had committed: its retry replays. A failed one may or
      // may not have committed: its retry applies it or replays it, and the balances show it moved once.
      for (const [i, [result]] of retried.entries()) {
        if (outcomes[i] === 'answered') assert.equal(result!.replayed, true, ops[i]!.id);
      }
      assert.deepEqual((await ledger.balances(alice)).USDC, { available: 1_000n - 200n - 100n, held: 100n });
      assert.deepEqual((await ledger.balances(bob)).USDC, { available: 200n, held: 0n });
      const audit = await ledger.audit();
      assert.equal(audit.openHolds, 20);
      assert.equal(audit.assets.USDC.sum, 0n);
    } finally {
      await ledger.close();
    }
  });

  test('close answers every call sent before it, ends the thread and closes the file cleanly', async () => {
    const file = path();
    const ledger = await openLedger({ kind: 'sqlite', path: file, thread: true });
    const deposits = Array.from({ length: 20 }, (_, i) =>
      ledger.deposit({ id: `d${i}`, asset: 'USDC', to: alice, amount: 1n }),
    );
    await ledger.close();
    assert.equal((await Promise.all(deposits)).filter((r) => !r.replayed).length, 20);
    // The last connection's clean close checkpoints the WAL into the file and removes it.
    assert.equal(existsSync(`${file}-wal`), false);
    await assert.rejects(ledger.balances(alice), /closed/);

    const again = await openLedger({ kind: 'sqlite', path: file, thread: true });
    try {
      assert.deepEqual((await again.balances(alice)).USDC, { available: 20n, held: 0n });
    } finally {
      await again.close();
    }
  });

  test('a call in flight keeps the process alive until answered, an idle thread does not', async () => {
    const file = path();
    const child = join(__dirname, 'support', 'unclosed-ledger.ts');
    // The child ends by itself (execFile's timeout would kill a hung one and fail the test).
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', child, file], {
      timeout: 60_000,
    });
    assert.equal(stdout, 'applied');
    const ledger = await openLedger({ kind: 'sqlite', path: file, thread: false });
    try {
      assert.deepEqual((await ledger.balances(alice)).USDC, { available: 5n, held: 0n });
    } finally {
      await ledger.close();
    }
  });
});
