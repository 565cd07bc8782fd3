// Where a webhook may point: https on a public address, unless the deployment allows private targets
// (OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE=1: http, loopback and private networks, for local development).
// The host is resolved and every address checked, at registration and again at each delivery, where
// the connection uses the addresses checked (./post.ts), so a name that later resolves into
// the service's own network is refused too.
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const NON_PUBLIC_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC_V4.addSubnet(net, prefix, 'ipv4');

// Kept apart from the IPv4 list: a BlockList compares IPv4 addresses with IPv4-mapped IPv6 rules.
const NON_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC_V6.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail counted as two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const [h, t] = [parse(head), parse(tail)];
  return tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, when it is one of the forms that reach
 * IPv4: IPv4-mapped (::ffff:a.b.c.d, in any spelling), IPv4-translated (::ffff:0:a.b.c.d) and the
 * deprecated IPv4-compatible (::a.b.c.d, with :: and ::1 themselves).
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  const carries = (zeros(5) && g[5] === 0xffff) || (zeros(4) && g[4] === 0xffff && g[5] === 0) || zeros(6);
  if (!carries) return null;
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
}

/** True for loopback, private, link-local, unique-local, shared, documentation, multicast and reserved addresses. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return NON_PUBLIC_V4.check(v4, 'ipv4');
  return NON_PUBLIC_V6.check(address, 'ipv6');
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Why a target was refused, in the fixed vocabulary of a delivery's `lastError` (./errors.ts). */
export type TargetRefusal = 'invalid_url' | 'dns' | 'private_target';

export class WebhookTargetRefused extends Error {
  constructor(
    message: string,
    readonly code: TargetRefusal = 'invalid_url',
  ) {
    super(message);
    this.name = 'WebhookTargetRefused';
  }
}

/** The URL's form: http(s), no credentials, at most 2048 characters; https only unless private targets are allowed. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  if (raw.length > 2048) throw new WebhookTargetRefused('url must be at most 2048 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetRefused('url must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new WebhookTargetRefused(allowPrivate ? 'url must be http or https' : 'url must be https');
  if (url.username !== '' || url.password !== '')
    throw new WebhookTargetRefused('url must not carry credentials');
  return url;
}

/** The host's addresses, every one public unless allowed; refused otherwise. */
export async function resolveTarget(
  host: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<{ address: string; family: number }[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let addresses: { address: string; family: number }[];
  if (isIP(bare) !== 0) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await resolve(bare);
    } catch {
      throw new WebhookTargetRefused(`the host ${bare} does not resolve`, 'dns');
    }
  }
  if (addresses.length === 0) throw new WebhookTargetRefused(`the host ${bare} does not resolve`, 'dns');
  if (!allowPrivate && addresses.some((a) => isNonPublicAddress(a.address)))
    throw new WebhookTargetRefused(
      `the host ${bare} is not on a public address; webhooks go to public addresses only`,
      'private_target',
    );
  return addresses;
}

/** Checks a webhook URL as registration does: its form, then its host's addresses. */
export async function checkWebhookTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<URL> {
  const url = parseWebhookUrl(raw, allowPrivate);
  await resolveTarget(url.hostname, allowPrivate, resolve);
  return url;
}
