import { addressBytes, formatIpv4, inPrefix, type AddressBytes } from './ip-address.ts';

interface Range {
  readonly network: AddressBytes;
  readonly prefix: number;
  readonly kind: string;
}

function range(cidr: string, kind: string): Range {
  const [address = '', prefix = ''] = cidr.split('/');
  const network = addressBytes(address);
  if (network === undefined) throw new Error(`bad built-in range ${cidr}`);
  return { network, prefix: Number(prefix), kind };
}

// Cloud metadata endpoints first, so the message names them; most also sit in a wider range below.
const IPV4_RANGES: readonly Range[] = [
  range('169.254.169.254/32', 'cloud metadata'), // AWS, GCP, Azure, OCI, DigitalOcean, …
  range('169.254.170.2/32', 'cloud metadata'), // AWS ECS task credentials
  range('168.63.129.16/32', 'cloud metadata'), // Azure wire server (a public address on purpose)
  range('100.100.100.200/32', 'cloud metadata'), // Alibaba Cloud
  range('192.0.0.192/32', 'cloud metadata'), // Oracle Cloud (legacy)
  range('0.0.0.0/8', 'unspecified'), // "this network"; 0.0.0.0 reaches the local host on Linux
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.168.0.0/16', 'private'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'), // includes 255.255.255.255
];

const IPV6_RANGES: readonly Range[] = [
  range('fd00:ec2::254/128', 'cloud metadata'), // AWS IMDS over IPv6
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible (deprecated)'),
  range('64:ff9b:1::/48', 'local-use NAT64'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local (deprecated)'),
  range('ff00::/8', 'multicast'),
];

// IPv6 prefixes that carry an IPv4 address, and where it sits: the IPv4 rules apply to it.
const EMBEDDING: ReadonlyArray<{ readonly range: Range; readonly offset: number }> = [
  { range: range('::ffff:0:0/96', 'IPv4-mapped'), offset: 12 },
  { range: range('64:ff9b::/96', 'NAT64'), offset: 12 },
  { range: range('2002::/16', '6to4'), offset: 2 },
];

/**
 * Why connecting to `address` is refused under `block_private_addresses`, e.g. `"loopback"` or
 * `"IPv4-mapped loopback"`; `undefined` for a public address. An input that is not an IP address
 * (a host name) is refused as `"not an IP address"`: callers check resolved addresses, never names.
 */
export function privateAddressKind(address: string): string | undefined {
  const bytes = addressBytes(address);
  if (bytes === undefined) return 'not an IP address';
  if (bytes.length === 4) return IPV4_RANGES.find((known) => inPrefix(bytes, known.network, known.prefix))?.kind;
  for (const { range: embedding, offset } of EMBEDDING) {
    if (!inPrefix(bytes, embedding.network, embedding.prefix)) continue;
    const inner = privateAddressKind(formatIpv4(bytes.slice(offset, offset + 4)));
    return inner === undefined ? undefined : `${embedding.kind} ${inner}`;
  }
  return IPV6_RANGES.find((known) => inPrefix(bytes, known.network, known.prefix))?.kind;
}
