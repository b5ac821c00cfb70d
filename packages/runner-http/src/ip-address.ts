import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export type AddressBytes = readonly number[];

/**
 * The bytes of an IP address in the canonical notations that DNS answers, sockets and WHATWG URL
 * normalisation produce (`127.0.0.1`, `::ffff:7f00:1`, `::ffff:127.0.0.1`, `fe80::1%eth0`), or
 * `undefined` when `text` is not an IP address. Exotic IPv4 spellings (`0x7f.1`, `2130706433`) are
 * not accepted here on purpose: a URL's host is normalised by `new URL()` before it gets this far.
 */
export function addressBytes(text: string): AddressBytes | undefined {
  const address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(address)) return address.split('.').map(Number);
  if (!isIPv6(address)) return undefined;
  return ipv6Bytes(address.replace(/%.*$/, ''));
}

function ipv6Bytes(address: string): AddressBytes | undefined {
  // A dotted IPv4 tail (`::ffff:127.0.0.1`) stands for the last two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  let head = address;
  let tail: number[] = [];
  if (dotted !== null) {
    head = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
    tail = dotted[2]!.split('.').map(Number);
  }
  const groupsWanted = (16 - tail.length) / 2;
  const [left = '', right] = head.split('::');
  const leftGroups = left === '' ? [] : left.split(':');
  const rightGroups = right === undefined || right === '' ? [] : right.split(':');
  const missing = groupsWanted - leftGroups.length - rightGroups.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return undefined;
  const groups = [...leftGroups, ...Array<string>(missing).fill('0'), ...rightGroups].map((group) =>
    Number.parseInt(group, 16),
  );
  if (groups.some((group) => !Number.isInteger(group) || group < 0 || group > 0xffff)) return undefined;
  return [...groups.flatMap((group) => [group >> 8, group & 0xff]), ...tail];
}

/** Whether the first `prefixLength` bits of `bytes` equal those of `network`. */
export function inPrefix(bytes: AddressBytes, network: AddressBytes, prefixLength: number): boolean {
  if (bytes.length !== network.length) return false;
  for (let bit = 0; bit < prefixLength; bit += 8) {
    const remaining = Math.min(8, prefixLength - bit);
    const mask = (0xff << (8 - remaining)) & 0xff;
    const index = bit / 8;
    if (((bytes[index] ?? 0) & mask) !== ((network[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** `a.b.c.d` for four bytes. */
export function formatIpv4(bytes: AddressBytes): string {
  return bytes.join('.');
}
