import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a webhook may not be sent to: private, loopback, link-local, unique-local and the like. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Whether an IP address is one a webhook may not be sent to (an IPv4-mapped IPv6 address by its IPv4 one). */
export function isPrivateAddress(address: string): boolean {
  const mapped = MAPPED_IPV4.exec(address)?.[1];
  if (mapped !== undefined) return isPrivateAddress(mapped);
  const family = isIP(address);
  return family === 0 || PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The addresses a host name resolves to. */
export type Resolve = (host: string) => Promise<string[]>;

export const resolveHost: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((found) => found.address);

/**
 * Why a webhook may not be sent to this URL, or undefined when it may: it must be http(s), without
 * credentials, and (unless private targets are allowed) its host, as written and as the DNS answers
 * it, must not be a private, loopback, link-local or unique-local address.
 */
export async function targetUrlProblem(
  text: string,
  { allowPrivate, resolve = resolveHost }: { allowPrivate: boolean; resolve?: Resolve },
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(host) === 0 ? await resolve(host) : [host];
  } catch {
    return `its host ${host} does not resolve`;
  }
  const refused = addresses.find(isPrivateAddress);
  return refused === undefined
    ? undefined
    : `its host resolves to ${refused}, a private or loopback address (SUITE_WEBHOOK_ALLOW_PRIVATE=true allows it, for development and tests)`;
}
