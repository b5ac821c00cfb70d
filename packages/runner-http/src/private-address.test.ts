// What block_private_addresses classifies as private, in every notation it meets.
import type { LookupAddress } from 'node:dns';
import { expect, test } from 'vitest';
import { HooklineError } from '@hookline/core';
import { PluginError } from '@hookline/core/plugin';
import { guardedLookup, type LookupFunction } from './guarded-lookup.ts';
import { PrivateAddressError } from './private-address-error.ts';
import { privateAddressKind } from './private-address.ts';

test.each([
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'cloud metadata'],
  ['169.254.170.2', 'cloud metadata'],
  ['168.63.129.16', 'cloud metadata'],
  ['100.100.100.200', 'cloud metadata'],
  ['169.254.1.1', 'link-local'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::', 'unspecified'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback'],
  ['[::ffff:7f00:1]', 'IPv4-mapped loopback'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped cloud metadata'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
  ['64:ff9b::7f00:1', 'NAT64 loopback'],
  ['64:ff9b::192.168.0.1', 'NAT64 private'],
  ['2002:7f00:1::1', '6to4 loopback'],
  ['2002:a9fe:a9fe::', '6to4 cloud metadata'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['fd00:ec2::254', 'cloud metadata'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['localhost', 'not an IP address'],
])('%s is refused as %s', (address, kind) => {
  expect(privateAddressKind(address)).toBe(kind);
});

test.each([
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '172.15.255.255',
  '100.63.255.255',
  '100.128.0.1',
  '192.169.0.1',
  '169.253.0.1',
  '11.0.0.1',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
  'fe7f::1',
  '2a00::1',
])('%s is public', (address) => {
  expect(privateAddressKind(address)).toBeUndefined();
});

test('every IPv4 spelling of loopback normalises, through WHATWG URL parsing, to an address that is refused', () => {
  for (const host of [
    '127.0.0.1',
    '2130706433',
    '0x7f.1',
    '0x7f000001',
    '0177.0.0.1',
    '0177.1',
    '127.1',
    '127.0.1',
    '[::ffff:127.0.0.1]',
    '[0:0:0:0:0:ffff:7f00:1]',
    '[::1]',
  ]) {
    const hostname = new URL(`http://${host}:8080/`).hostname;
    expect([host, privateAddressKind(hostname)]).toEqual([host, expect.stringMatching(/loopback$/)]);
  }
});

function fakeLookup(answers: LookupAddress[] | Error): LookupFunction & { calls: unknown[] } {
  const calls: unknown[] = [];
  const lookup = ((hostname, options, callback) => {
    calls.push([hostname, options]);
    if (answers instanceof Error) callback(answers, []);
    else callback(null, answers);
  }) as LookupFunction & { calls: unknown[] };
  lookup.calls = calls;
  return lookup;
}

function resolve(lookup: LookupFunction, all: boolean): Promise<{ error: unknown; address: unknown; family: unknown }> {
  return new Promise((done) => {
    lookup('host.test', { all }, (error, address, family) => done({ error, address, family }));
  });
}

test('the guarded lookup passes on only the public answers, in either callback shape', async () => {
  const lookup = guardedLookup(
    fakeLookup([
      { address: '127.0.0.1', family: 4 },
      { address: '93.184.215.14', family: 4 },
      { address: '::1', family: 6 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]),
  );
  expect(await resolve(lookup, true)).toMatchObject({
    error: null,
    address: [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ],
  });
  expect(await resolve(lookup, false)).toMatchObject({ error: null, address: '93.184.215.14', family: 4 });
});

test('a name whose every answer is private is refused, naming the name and the address', async () => {
  const result = await resolve(
    guardedLookup(
      fakeLookup([
        { address: '10.0.0.5', family: 4 },
        { address: 'fd00::5', family: 6 },
      ]),
    ),
    true,
  );
  expect(PrivateAddressError.isInstance(result.error)).toBe(true);
  // One of Hookline's errors, with its code, and no other Hookline error class claims it.
  expect(HooklineError.isInstance(result.error) && result.error.code).toBe('HOOKLINE_PRIVATE_ADDRESS');
  expect(PluginError.isInstance(result.error)).toBe(false);
  expect(PrivateAddressError.isInstance(new PluginError('not refused'))).toBe(false);
  expect((result.error as Error).message).toBe(
    'refused to connect to private address 10.0.0.5 (private), which host.test resolves to; block_private_addresses = true allows public addresses only',
  );
});

test('DNS errors pass through unchanged', async () => {
  const failure = Object.assign(new Error('getaddrinfo ENOTFOUND host.test'), { code: 'ENOTFOUND' });
  expect((await resolve(guardedLookup(fakeLookup(failure)), false)).error).toBe(failure);
});
