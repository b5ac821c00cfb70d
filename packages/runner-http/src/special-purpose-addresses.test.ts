// block_private_addresses covers every block of the IANA IPv4 and IPv6 special-purpose address
// registries. Nothing here connects anywhere but loopback: every refusal is asserted to happen
// before a socket exists, and an address is only handed to the runner once it is known refused.
import { expect, test } from 'vitest';
import { httpRunner } from './http-runner.ts';
import { privateAddressKind } from './private-address.ts';
import { emitOnce, httpHook } from '../test-support/hooks.ts';

/** [block, an address inside it, the kind the refusal names]. */
const INSIDE: ReadonlyArray<readonly [string, string, string]> = [
  // IPv4 special-purpose registry
  ['0.0.0.0/8', '0.255.255.255', 'unspecified'],
  ['10.0.0.0/8', '10.255.255.255', 'private'],
  ['100.64.0.0/10', '100.127.255.255', 'carrier-grade NAT'],
  ['127.0.0.0/8', '127.0.0.2', 'loopback'],
  ['169.254.0.0/16', '169.254.0.1', 'link-local'],
  ['172.16.0.0/12', '172.16.0.0', 'private'],
  ['192.0.0.0/24', '192.0.0.8', 'reserved (documentation, benchmarking or future use)'],
  ['192.0.0.170/32', '192.0.0.170', 'reserved (documentation, benchmarking or future use)'],
  ['192.0.2.0/24', '192.0.2.2', 'reserved (documentation, benchmarking or future use)'],
  ['192.31.196.0/24', '192.31.196.1', 'AS112 DNS sink'],
  ['192.52.193.0/24', '192.52.193.1', 'AMT relay'],
  ['192.88.99.0/24', '192.88.99.2', 'reserved (documentation, benchmarking or future use)'],
  ['192.168.0.0/16', '192.168.255.255', 'private'],
  ['192.175.48.0/24', '192.175.48.1', 'AS112 DNS sink'],
  ['198.18.0.0/15', '198.19.255.255', 'reserved (documentation, benchmarking or future use)'],
  ['198.51.100.0/24', '198.51.100.1', 'reserved (documentation, benchmarking or future use)'],
  ['203.0.113.0/24', '203.0.113.1', 'reserved (documentation, benchmarking or future use)'],
  ['224.0.0.0/4', '239.255.255.255', 'multicast'],
  ['240.0.0.0/4', '255.255.255.254', 'reserved (documentation, benchmarking or future use)'],
  ['255.255.255.255/32', '255.255.255.255', 'broadcast'],
  // IPv6 special-purpose registry
  ['::/128', '::', 'unspecified'],
  ['::1/128', '::1', 'loopback'],
  ['::/96 (IPv4-compatible)', '::c000:201', 'IPv4-compatible (deprecated)'],
  [
    '::ffff:0:0/96 (a private IPv4 inside)',
    '::ffff:192.0.2.1',
    'IPv4-mapped reserved (documentation, benchmarking or future use)',
  ],
  ['::ffff:0:0:0/96', '::ffff:0:808:808', 'IPv4-translated'],
  [
    '64:ff9b::/96 (a private IPv4 inside)',
    '64:ff9b::198.18.0.1',
    'NAT64 reserved (documentation, benchmarking or future use)',
  ],
  ['64:ff9b:1::/48', '64:ff9b:1::808:808', 'local-use NAT64'],
  ['100::/64', '100::ffff:ffff:ffff:ffff', 'discard-only'],
  ['100:0:0:1::/64', '100:0:0:1::1', 'dummy prefix'],
  ['2001::/32', '2001::1', 'Teredo'],
  ['2001:1::1/128', '2001:1::1', 'reserved (documentation, benchmarking or future use)'],
  ['2001:2::/48', '2001:2::1', 'benchmarking'],
  ['2001:3::/32', '2001:3::1', 'AMT relay'],
  ['2001:4:112::/48', '2001:4:112::1', 'AS112 DNS sink'],
  ['2001:10::/28', '2001:10::1', 'ORCHID (deprecated)'],
  ['2001:20::/28', '2001:2f::1', 'ORCHIDv2'],
  ['2001:30::/28', '2001:30::1', 'drone remote ID'],
  ['2001::/23', '2001:1ff:ffff::1', 'reserved (documentation, benchmarking or future use)'],
  ['2001:db8::/32', '2001:db8::1', 'reserved (documentation, benchmarking or future use)'],
  [
    '2002::/16 (a private IPv4 inside)',
    '2002:c000:201::1',
    '6to4 reserved (documentation, benchmarking or future use)',
  ],
  ['2620:4f:8000::/48', '2620:4f:8000::1', 'AS112 DNS sink'],
  ['3fff::/20', '3fff:fff:ffff::1', 'reserved (documentation, benchmarking or future use)'],
  ['5f00::/16', '5f00::1', 'segment routing'],
  ['fc00::/7', 'fdff:ffff::1', 'unique-local'],
  ['fe80::/10', 'febf::1', 'link-local'],
  // Outside the registries, refused all the same
  ['fec0::/10', 'feff::1', 'site-local (deprecated)'],
  ['ff00::/8', 'ff0e::1', 'multicast'],
  ['cloud metadata', '168.63.129.16', 'cloud metadata'],
];

/** Public addresses right beside a refused block (and a few ordinary ones): each must be allowed. */
const OUTSIDE = [
  '1.0.0.0',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.0',
  '191.255.255.255',
  '192.0.1.0',
  '192.0.3.0',
  '192.31.197.0',
  '192.52.194.0',
  '192.88.98.255',
  '192.88.100.0',
  '192.167.255.255',
  '192.169.0.0',
  '192.175.49.0',
  '198.17.255.255',
  '198.20.0.0',
  '198.51.99.255',
  '198.51.101.0',
  '203.0.112.255',
  '203.0.114.0',
  '223.255.255.255',
  '168.63.129.15',
  '168.63.129.17',
  '8.8.8.8',
  '::1:0:0:0',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '64:ff9b:2::1',
  '100:0:0:2::',
  '2001:200::1',
  '2001:db7:ffff::1',
  '2001:db9::1',
  '2002:808:808::1',
  '2003::1',
  '2620:4f:8001::1',
  '3fff:1000::1',
  '5eff::1',
  '5f01::1',
  'fbff::1',
  'fe7f::1',
  '2606:4700:4700::1111',
];

test.each(INSIDE)('%s: %s is refused as %s', (_block, address, kind) => {
  expect(privateAddressKind(address)).toBe(kind);
});

test.each(OUTSIDE)('%s is allowed', (address) => {
  expect(privateAddressKind(address)).toBeUndefined();
});

test('through the runner, a name resolving into any of these blocks is refused before connecting', async () => {
  for (const [, address, kind] of INSIDE) {
    // Never give the runner an address the classifier would let through: it would dial it.
    expect([address, privateAddressKind(address)]).toEqual([address, kind]);
    const family = address.includes(':') ? 6 : 4;
    const runner = httpRunner({
      lookup: (_hostname, options, callback) =>
        options.all === true ? callback(null, [{ address, family }]) : callback(null, address, family),
    });
    const outcome = await emitOnce(httpHook('http://hook.test/hook', 'tls = "off"\nblock_private_addresses = true'), {
      runner,
    });
    expect([address, outcome.hooks[0]?.status, outcome.hooks[0]?.error]).toEqual([
      address,
      'failed',
      `POST http://hook.test/hook: refused to connect to private address ${address} (${kind}), which hook.test resolves to; block_private_addresses = true allows public addresses only`,
    ]);
  }
});

test("an IP literal in the url is refused before any socket exists, as the issue's four blocks show", async () => {
  for (const address of [
    '192.0.2.2',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '[2001:db8::1]',
    '[64:ff9b:1::a00:1]',
  ]) {
    const bare = address.replace(/^\[|\]$/g, '');
    expect([address, privateAddressKind(bare)]).toEqual([address, expect.any(String)]);
    const outcome = await emitOnce(
      httpHook(`http://${address}:8080/hook`, 'tls = "off"\nblock_private_addresses = true'),
    );
    // Without "which … resolves to": the literal was refused before a lookup, let alone a socket.
    expect([address, outcome.hooks[0]?.status, outcome.hooks[0]?.error]).toEqual([
      address,
      'failed',
      `POST http://${address}:8080/hook: refused to connect to private address ${bare} (${privateAddressKind(bare)!}); block_private_addresses = true allows public addresses only`,
    ]);
  }
});
