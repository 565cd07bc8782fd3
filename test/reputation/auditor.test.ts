// The independent auditor against a running service (dev server, API over HTTP, real worker and
// ledger): after an approved contract and a panel-decided dispute it finds 0 differences and
// recomputes the draw; the reputation route answers raw figures and, unsigned without anchors, no
// score and why. Then a test edits the store as an attacker with database access would: a changed
// record, a deleted one, the last one dropped (found against the head an earlier audit kept) — the
// auditor names each.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import { audit } from '../../scripts/audit/auditor';
import { useServiceHarness } from '../support/service';
import { ELIGIBILITY_STAKE } from '../support/fixtures';
import { eventually } from '../support/eventually';
import { agent, DELIVERY, fixedTerms, fund } from '../e2e/support';

const h = useServiceHarness();

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(new URL(path, h().url()));
  assert.equal(res.status, 200, `GET ${path}`);
  return (await res.json()) as T;
}

describe('the independent auditor against a running service', () => {
  test('0 differences after real contracts; a changed or deleted record is named', async () => {
    const client = agent(h());
    const worker = agent(h());
    const bas = [agent(h()), agent(h()), agent(h())];
    await fund(h(), client.address);
    await fund(h(), worker.address);
    for (const ba of bas) {
      await fund(h(), ba.address, 120_000_000n);
      await ba.lockEligibility(ELIGIBILITY_STAKE.toString());
    }
    // Approved.
    const approved = (await client.createContract(fixedTerms(worker.address))).contractId;
    await worker.accept(approved);
    await worker.deliver(approved, DELIVERY);
    await client.approve(approved);
    // Disputed, decided by the panel (one BA dissents on one criterion), appeals waived.
    const disputed = (
      await client.createContract({ ...fixedTerms(worker.address), acceptanceCriteria: ['a', 'b'] })
    ).contractId;
    await worker.accept(disputed);
    await worker.deliver(disputed, DELIVERY);
    await client.dispute(disputed);
    await bas[0]!.vote(disputed, ['met', 'not met']);
    await bas[1]!.vote(disputed, ['met', 'not met']);
    await bas[2]!.vote(disputed, ['met', 'met']);
    await client.appeal(disputed, { waive: true });
    await worker.appeal(disputed, { waive: true });
    // 2 records for the approval, 5 for the panel's contract.
    await eventually(
      () => getJson<{ sequence: number }>('/outcomes/head'),
      (head) => head.sequence >= 7,
      60_000,
    );

    const clean = await audit(h().url());
    assert.deepEqual(clean.differences, []);
    assert.equal(clean.records, 7);
    assert.equal(clean.contracts, 2);
    assert.equal(clean.draws, 1);

    const rep = await getJson<{
      raw: { worker: { contracts: number; volume: string; credit: number }; counterparties: number };
      trust: { score: number | null; reason: string | null };
    }>(`/agents/${worker.address}/reputation`);
    assert.equal(rep.raw.worker.contracts, 2);
    // Approved: 2 of 2 criteria (1); the panel: [met, not met] (0.5); trivial, ×1.
    assert.equal(rep.raw.worker.credit, 1.5);
    assert.equal(rep.raw.counterparties, 1);
    assert.equal(rep.trust.score, null);
    assert.match(rep.trust.reason!, /trust anchors/);
    const fromClient = await getJson<{ trust: { score: number; from: string } }>(
      `/agents/${worker.address}/reputation?viewer=${client.address}`,
    );
    assert.equal(fromClient.trust.from, 'viewer');
    assert.ok(fromClient.trust.score > 0);
    const bad = await fetch(new URL(`/agents/${worker.address}/reputation?viewer=nobody`, h().url()));
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /viewer/);

    const settings = h().settings.ledger;
    assert.equal(settings.kind, 'sqlite');
    const db = new Database(settings.kind === 'sqlite' ? settings.path : '');
    try {
      // A changed amount: its hash no longer covers its bytes.
      const row = db.prepare('SELECT body FROM outcome_log WHERE sequence = 2').get() as { body: string };
      const edited = { ...(JSON.parse(row.body) as object), amount: '999999999' };
      db.prepare('UPDATE outcome_log SET body = ? WHERE sequence = 2').run(JSON.stringify(edited));
      const tampered = await audit(h().url());
      assert.ok(
        tampered.differences.some((d) => d.startsWith('record 2: hash is not')),
        tampered.differences.join('\n'),
      );
      assert.ok(tampered.differences.some((d) => d.includes('amount 999999999')));
      db.prepare('UPDATE outcome_log SET body = ? WHERE sequence = 2').run(row.body);
      assert.deepEqual((await audit(h().url())).differences, []);

      // A deleted record: the next one's sequence and prevHash no longer follow.
      db.prepare('DELETE FROM outcome_log WHERE sequence = 4').run();
      const dropped = await audit(h().url());
      assert.ok(
        dropped.differences.includes('record 5: expected sequence 4'),
        dropped.differences.join('\n'),
      );
      assert.ok(dropped.differences.includes('record 5: prevHash is not the previous record’s hash'));

      // The last record dropped: the chain still verifies, but a head kept from the clean audit does not.
      db.prepare('DELETE FROM outcome_log WHERE sequence = 7').run();
      const truncated = await audit(h().url(), undefined, clean.head);
      assert.ok(
        truncated.differences.some((d) =>
          d.startsWith(`known head 7 ${clean.head.hash}: the log has no such record`),
        ),
        truncated.differences.join('\n'),
      );
    } finally {
      db.close();
    }
  });
});
