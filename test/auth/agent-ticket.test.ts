// The verified-agent ticket's MAC: bound to its keyid and expiry, keyed per deployment.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { mintTicket, TICKET_LIFETIME_MS, ticketKey, ticketValid } from '../../api/auth/agent-ticket';

const cursorKey = new Uint8Array(32).fill(7);
const key = ticketKey(cursorKey);
const keyid = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const other = '0x1111111111111111111111111111111111111111';
const now = Date.UTC(2026, 10, 28);

describe('verified-agent tickets', () => {
  test('a minted ticket is v1.<expiry>.<mac> and valid for its keyid, any letter case, until it expires', () => {
    const ticket = mintTicket(key, keyid, now);
    const [version, expiry, mac] = ticket.split('.');
    assert.equal(version, 'v1');
    assert.equal(Number(expiry) * 1000, now + TICKET_LIFETIME_MS);
    assert.equal(Buffer.from(mac!, 'base64url').length, 16);
    assert.equal(ticketValid(key, ticket, keyid, now), true);
    assert.equal(ticketValid(key, ticket, keyid.toUpperCase().replace('0X', '0x'), now), true);
    assert.equal(ticketValid(key, ticket, keyid, now + TICKET_LIFETIME_MS - 1000), true);
    assert.equal(ticketValid(key, ticket, keyid, now + TICKET_LIFETIME_MS), false);
  });

  test('another keyid, another deployment, a changed expiry or mac, or garbage: not valid', () => {
    const ticket = mintTicket(key, keyid, now);
    const [, expiry, mac] = ticket.split('.');
    assert.equal(ticketValid(key, ticket, other, now), false);
    assert.equal(ticketValid(ticketKey(new Uint8Array(32).fill(8)), ticket, keyid, now), false);
    assert.equal(ticketValid(key, `v1.${Number(expiry) + 86_400}.${mac}`, keyid, now), false);
    const flipped = Buffer.from(mac!, 'base64url');
    flipped[0]! ^= 1;
    assert.equal(ticketValid(key, `v1.${expiry}.${flipped.toString('base64url')}`, keyid, now), false);
    for (const garbage of [undefined, '', 'v2' + ticket.slice(2), `${ticket}x`, 'v1..', 'v1.1.AAAA']) {
      assert.equal(ticketValid(key, garbage, keyid, now), false, String(garbage));
    }
  });

  test('the key is the cursor key under its own label, apart from the listing cursors', () => {
    const expected = createHmac('sha256', cursorKey).update('opencontract agent ticket').digest();
    assert.deepEqual(key, expected);
    const cursors = createHmac('sha256', cursorKey).update('opencontract contract-list cursor').digest();
    assert.notDeepEqual(key, cursors);
  });
});
