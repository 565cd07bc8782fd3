// The client's network address (docs/security.md "Behind a reverse proxy"): the TCP peer, unless the
// peer is one of the deployment's trusted proxies (OPENCONTRACT_TRUSTED_PROXIES), in which case the
// forwarded chain (RFC 7239 `Forwarded`, else `X-Forwarded-For`) is read from the right and the first
// hop that is not a trusted proxy is the client. A forwarded header from any other peer is ignored:
// anyone can write one, so honouring it would let a client choose its own rate-limit bucket.
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';

/** The trusted proxies: addresses and CIDR ranges, IPv4 and IPv6. */
export interface TrustedProxies {
  has(address: string): boolean;
}

export const NO_TRUSTED_PROXIES: TrustedProxies = { has: () => false };

/** `::ffff:192.0.2.1` → `192.0.2.1`; brackets and zone dropped. */
export function normalizeAddress(raw: string): string {
  let a = raw.trim().toLowerCase();
  if (a.startsWith('[') && a.includes(']')) a = a.slice(1, a.indexOf(']'));
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  return mapped ? mapped[1]! : a;
}

/** Parses `OPENCONTRACT_TRUSTED_PROXIES`: comma-separated addresses or CIDRs; empty → none. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) return NO_TRUSTED_PROXIES;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const ip = normalizeAddress(address ?? '');
    const family = isIP(ip);
    const bits = prefix === undefined ? null : Number(prefix);
    const max = family === 4 ? 32 : 128;
    if (
      family === 0 ||
      extra !== undefined ||
      (bits !== null && (!/^\d{1,3}$/.test(prefix!) || bits > max))
    ) {
      throw new Error(
        `OPENCONTRACT_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)`,
      );
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === null) list.addAddress(ip, type);
    else list.addSubnet(ip, bits, type);
  }
  return {
    has(address) {
      const ip = normalizeAddress(address);
      const family = isIP(ip);
      return family !== 0 && list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** The `for=` nodes of RFC 7239 `Forwarded` elements, in order; null when a value is malformed. */
function forwardedFor(header: string): string[] | null {
  const nodes: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq === -1) {
        if (pair.trim() === '') continue;
        return null;
      }
      if (pair.slice(0, eq).trim().toLowerCase() !== 'for') continue;
      let value = pair.slice(eq + 1).trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
      nodes.push(value);
    }
  }
  return nodes;
}

/** A forwarded node without its port: `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`. */
function nodeAddress(node: string): string {
  const n = node.trim();
  if (n.startsWith('[')) return normalizeAddress(n);
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(n);
  return normalizeAddress(v4port ? v4port[1]! : n);
}

/** The hops the trusted proxies recorded, client first: `Forwarded` when present, else `X-Forwarded-For`. */
function forwardedChain(headers: Headers): string[] {
  const forwarded = headers.get('forwarded');
  if (forwarded !== null) {
    const nodes = forwardedFor(forwarded);
    if (nodes !== null && nodes.length > 0) return nodes.map(nodeAddress);
  }
  const xff = headers.get('x-forwarded-for');
  if (xff === null) return [];
  return xff
    .split(',')
    .map((n) => nodeAddress(n))
    .filter((n) => n !== '');
}

/**
 * The client address of a request from `peer`: the peer itself unless it is a trusted proxy; then
 * the right-most forwarded hop that is not a trusted proxy (the left-most if every hop is one).
 */
export function resolveClientAddress(peer: string, headers: Headers, trusted: TrustedProxies): string {
  const address = normalizeAddress(peer);
  if (!trusted.has(address)) return address;
  const chain = forwardedChain(headers);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!trusted.has(chain[i]!)) return chain[i]!;
  }
  return chain[0] ?? address;
}

/** The TCP peer as @hono/node-server saw it; requests that did not come over a socket share one. */
function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export type ClientAddressEnv = { Variables: { clientAddress?: string } };

/** The first middleware: resolves the client address once, for every limit and check after it. */
export function clientAddressMiddleware(trusted: TrustedProxies) {
  return createMiddleware<ClientAddressEnv>(async (c, next) => {
    c.set('clientAddress', resolveClientAddress(peerAddress(c), c.req.raw.headers, trusted));
    await next();
  });
}

/** The client's address (clientAddressMiddleware), or the TCP peer where that did not run. */
export function clientAddress(c: Context): string {
  return (c.get('clientAddress') as string | undefined) ?? normalizeAddress(peerAddress(c));
}
