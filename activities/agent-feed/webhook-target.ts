// Where a webhook may point: https on a public address, unless the deployment allows private targets
// (OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE=1: http, loopback and private networks, for local development).
// The host is resolved and every address checked, at registration and again at each delivery, where
// the connection uses the addresses checked (./webhook-post.ts), so a name that later resolves into
// the service's own network is refused too.
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const NON_PUBLIC = new BlockList();
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
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** True for loopback, private, link-local, unique-local, shared, documentation, multicast and reserved addresses. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return NON_PUBLIC.check(mapped[1]!, 'ipv4');
  return NON_PUBLIC.check(address, 'ipv6');
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export class WebhookTargetRefused extends Error {
  constructor(message: string) {
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
      throw new WebhookTargetRefused(`the host ${bare} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new WebhookTargetRefused(`the host ${bare} does not resolve`);
  if (!allowPrivate && addresses.some((a) => isNonPublicAddress(a.address)))
    throw new WebhookTargetRefused(
      `the host ${bare} resolves to a loopback, private or reserved address; webhooks go to public addresses only`,
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
