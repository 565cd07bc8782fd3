// What both version-1 fixtures (ledger-v1.sql, ledger-v1-postgres.sql) hold, and the check that an
// upgraded ledger still holds it.
import assert from 'node:assert/strict';
import { agentOwner } from '../../../store/ledger';
import type { Ledger } from '../../../store/ledger';

export const alice = agentOwner('0x' + 'a'.repeat(40));
export const bob = agentOwner('0x' + 'b'.repeat(40));

/** Balances, the resolved and open holds, eligibility and the audit the fixture was written with. */
export async function assertVersionOneContents(ledger: Ledger): Promise<void> {
  assert.deepEqual((await ledger.balances(alice)).USDC, { available: 400n, held: 300n });
  assert.deepEqual(await ledger.balances(bob), {
    USDC: { available: 290n, held: 0n },
    OCT: { available: 5n, held: 0n },
  });
  assert.equal((await ledger.getHold('c1:escrow'))?.status, 'resolved');
  assert.deepEqual((await ledger.getHold('c1:escrow'))?.resolution?.parts, [
    { to: bob, amount: 290n },
    { to: 'treasury', amount: 10n },
  ]);
  assert.deepEqual(
    (await ledger.holdsOf(alice, { open: true })).map((h) => h.id),
    ['c2:escrow', 'elig:a'],
  );
  assert.equal((await ledger.eligibleAgents(100n))[0]?.address, alice.slice('agent:'.length));
  const audit = await ledger.audit();
  assert.equal(audit.transfers, 7);
  assert.equal(audit.openHolds, 2);
}
