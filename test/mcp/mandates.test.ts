// The MCP server started as a delegate (OPENCONTRACT_ON_BEHALF_OF): its tools act for the owner within the
// owner's mandate to the key. A tool call within the mandate holds the owner's money; one beyond it comes
// back as a tool error naming the refusal, and the owner's balance is untouched.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { addressFromPrivateKey, randomPrivateKey } from '../../sdk/typescript';
import { useServiceHarness } from '../support/service';
import { agent, fixedTerms, fund } from '../e2e/support';
import { usdc } from '../support/balances';
import { FUNDS, PRICE } from '../support/fixtures';
import { connectMcpAgent, type McpAgent, type TranscriptEntry } from './support';

const h = useServiceHarness();
const sessions: McpAgent[] = [];
after(async () => {
  for (const s of sessions) await s.close();
});

describe('the MCP server acting for an owner under a mandate', () => {
  test('a tool call beyond the mandate answers the refusal; the owner’s balance is untouched', async () => {
    const owner = agent(h());
    const worker = agent(h());
    await fund(h(), owner.address);
    const delegateKey = randomPrivateKey();
    await owner.grantMandate({
      delegate: addressFromPrivateKey(delegateKey),
      limits: { perContract: PRICE.toString(), total: PRICE.toString(), perDay: (2n * PRICE).toString() },
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    const transcript: TranscriptEntry[] = [];
    const llm = await connectMcpAgent(h().url(), 'delegate', transcript, delegateKey, {
      OPENCONTRACT_ON_BEHALF_OF: owner.address,
    });
    sessions.push(llm);

    const me = await llm.call<{ address: string; signer: string }>('whoami');
    assert.equal(me.address, owner.address);
    assert.equal(me.signer, addressFromPrivateKey(delegateKey));

    const terms = fixedTerms(worker.address);
    const created = await llm.call<{ contractId: string; client: string }>('create_contract', terms);
    assert.equal(created.client, owner.address);
    assert.deepEqual(await usdc(h(), owner.address), [FUNDS - PRICE, PRICE]);

    const refusal = await llm.refused('create_contract', fixedTerms(worker.address));
    assert.match(refusal, /^403 mandate_exceeded: /);
    assert.deepEqual(await usdc(h(), owner.address), [FUNDS - PRICE, PRICE], 'nothing more held');

    // Money never leaves through a delegate, and the delegate sees what it has left.
    const withdrawal = await llm.refused('withdraw_funds', { amount: '1', destination: 'bank:x' });
    assert.match(withdrawal, /^403 mandate_not_allowed: /);
    const [mandate] = await llm.call<Array<{ committed: string; left: string }>>('list_mandates');
    assert.equal(mandate!.committed, PRICE.toString());
    assert.equal(mandate!.left, '0');
    assert.deepEqual(await usdc(h(), owner.address), [FUNDS - PRICE, PRICE]);
  });
});
