import { HooklineError } from '@hookline/core/plugin';
import ipaddr from 'ipaddr.js';
import { addressBytes, formatIpv4, inPrefix, type AddressBytes } from './ip-address.ts';

interface Range {
  readonly network: AddressBytes;
  readonly prefix: number;
  readonly kind: string;
}

function range(cidr: string, kind: string): Range {
  const [address = '', prefix = ''] = cidr.split('/');
  const network = addressBytes(address);
  if (network === undefined)
    throw new HooklineError(
      'HOOKLINE_HTTP_BUILTIN_RANGE_INVALID',
      `@hookline/runner-http's built-in range ${cidr} does not parse: this is a bug, please report it.`,
    );
  return { network, prefix: Number(prefix), kind };
}

// Cloud metadata endpoints first, so the message names them; some are public addresses on purpose.
const METADATA: readonly Range[] = [
  range('169.254.169.254/32', 'cloud metadata'), // AWS, GCP, Azure, OCI, DigitalOcean, …
  range('169.254.170.2/32', 'cloud metadata'), // AWS ECS task credentials
  range('168.63.129.16/32', 'cloud metadata'), // Azure wire server
  range('100.100.100.200/32', 'cloud metadata'), // Alibaba Cloud
  range('192.0.0.192/32', 'cloud metadata'), // Oracle Cloud (legacy)
  range('fd00:ec2::254/128', 'cloud metadata'), // AWS IMDS over IPv6
];

// Special-purpose blocks that ipaddr.js's range() files under "unicast".
const UNCLASSIFIED: readonly Range[] = [
  range('::/96', 'IPv4-compatible (deprecated)'), // `::` and `::1` inside it have names of their own
  range('100:0:0:1::/64', 'dummy prefix'), // RFC 9780
];

// IPv6 prefixes that carry an IPv4 address, and where it sits: the IPv4 verdict is theirs.
const EMBEDDING: ReadonlyArray<{ readonly range: Range; readonly offset: number }> = [
  { range: range('::ffff:0:0/96', 'IPv4-mapped'), offset: 12 },
  { range: range('64:ff9b::/96', 'NAT64'), offset: 12 },
  { range: range('2002::/16', '6to4'), offset: 2 },
];

// ipaddr.js's range names, as a message says them. A name missing here (a range a later ipaddr.js
// adds) is refused all the same, under its own name.
const KINDS: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved (documentation, benchmarking or future use)',
  benchmarking: 'benchmarking',
  as112: 'AS112 DNS sink',
  as112v6: 'AS112 DNS sink',
  amt: 'AMT relay',
  uniqueLocal: 'unique-local',
  deprecatedSiteLocal: 'site-local (deprecated)',
  discard: 'discard-only',
  rfc6145: 'IPv4-translated',
  // 64:ff9b::/96 is handled as an embedding first, so what is left is RFC 8215's 64:ff9b:1::/48,
  // which translates to private IPv4 networks.
  rfc6052: 'local-use NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  deprecatedOrchid: 'ORCHID (deprecated)',
  orchid2: 'ORCHIDv2',
  droneRemoteIdProtocolEntityTags: 'drone remote ID',
  segmentRouting: 'segment routing',
};

/**
 * Why connecting to `address` is refused under `block_private_addresses`, e.g. `"loopback"` or
 * `"IPv4-mapped loopback"`; `undefined` for a public address. Every block of the IANA IPv4 and IPv6
 * special-purpose address registries is refused (ipaddr.js's `range()` classifies them, plus the few
 * it files as unicast), and multicast; an IPv6 address that embeds an IPv4 one (mapped, NAT64, 6to4)
 * gets the embedded address's verdict. An input that is not an IP address (a host name) is refused as
 * `"not an IP address"`: callers check resolved addresses, never names.
 */
export function privateAddressKind(address: string): string | undefined {
  const bytes = addressBytes(address);
  if (bytes === undefined) return 'not an IP address';
  const metadata = within(bytes, METADATA);
  if (metadata !== undefined) return metadata.kind;
  for (const { range: embedding, offset } of EMBEDDING) {
    if (!inPrefix(bytes, embedding.network, embedding.prefix)) continue;
    const inner = privateAddressKind(formatIpv4(bytes.slice(offset, offset + 4)));
    return inner === undefined ? undefined : `${embedding.kind} ${inner}`;
  }
  const name: string = ipaddr.fromByteArray([...bytes]).range();
  if (name !== 'unicast') return KINDS[name] ?? name;
  return within(bytes, UNCLASSIFIED)?.kind;
}

function within(bytes: AddressBytes, ranges: readonly Range[]): Range | undefined {
  return ranges.find((candidate) => inPrefix(bytes, candidate.network, candidate.prefix));
}
