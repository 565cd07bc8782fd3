// The client address behind reverse proxies (api/http/client-address.ts): forwarded headers count only from
// trusted proxies, read from the right; the setting is checked at start.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseTrustedProxies, resolveClientAddress } from '../../api/http/client-address';

const headers = (h: Record<string, string>) => new Headers(h);

describe('resolveClientAddress', () => {
  const trusted = parseTrustedProxies('10.0.0.2, 10.1.0.0/16, fd00::/8');

  test('a peer that is not trusted is the client, whatever it forwards', () => {
    const h = headers({ 'X-Forwarded-For': '1.2.3.4', Forwarded: 'for=5.6.7.8' });
    assert.equal(resolveClientAddress('192.0.2.9', h, trusted), '192.0.2.9');
    assert.equal(resolveClientAddress('::ffff:192.0.2.9', h, trusted), '192.0.2.9');
  });

  test('from a trusted proxy: the right-most hop that is not a trusted proxy', () => {
    const xff = headers({ 'X-Forwarded-For': '6.6.6.6, 198.51.100.4, 10.1.2.3' });
    assert.equal(resolveClientAddress('10.0.0.2', xff, trusted), '198.51.100.4');
    assert.equal(resolveClientAddress('fd00::1', xff, trusted), '198.51.100.4');
  });

  test('RFC 7239 Forwarded wins over X-Forwarded-For; quoted IPv6 with a port, IPv4 with a port', () => {
    const both = headers({
      Forwarded: 'for="[2001:DB8::7]:4711";proto=https;by=10.0.0.2, for="10.1.0.9:80"',
      'X-Forwarded-For': '203.0.113.1',
    });
    assert.equal(resolveClientAddress('10.0.0.2', both, trusted), '2001:db8::7');
  });

  test('no forwarded header, or every hop trusted: the peer, or the left-most hop', () => {
    assert.equal(resolveClientAddress('10.0.0.2', headers({}), trusted), '10.0.0.2');
    const allTrusted = headers({ 'X-Forwarded-For': '10.1.0.1, 10.1.0.2' });
    assert.equal(resolveClientAddress('10.0.0.2', allTrusted, trusted), '10.1.0.1');
  });

  test('the setting: empty trusts nobody; a bad entry is refused naming it', () => {
    assert.equal(parseTrustedProxies('').has('127.0.0.1'), false);
    assert.equal(parseTrustedProxies(undefined).has('10.0.0.2'), false);
    for (const bad of ['10.0.0.256', '10.0.0.0/33', 'proxy.local', '10.0.0.0/8/1', 'fd00::/129']) {
      assert.throws(() => parseTrustedProxies(bad), /OPENCONTRACT_TRUSTED_PROXIES/, bad);
    }
  });
});
