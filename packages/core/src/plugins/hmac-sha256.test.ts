import { createHmac } from 'node:crypto';
import { expect, test } from 'vitest';
import { hmacSha256, webCryptoHmac } from './hmac-sha256.ts';

const key = new Uint8Array(32).map((_, index) => index * 7);
const texts = ['', 'hookline', JSON.stringify(['hookline-journal-entry', 1, 'sqlite:/x', { é: '☃' }])];

test("the runtime's synchronous HMAC and Web Crypto's give the same MACs, each verifying the other's", async () => {
  const fast = hmacSha256(key);
  const web = webCryptoHmac(key);
  for (const text of texts) {
    const expected = createHmac('sha256', key).update(text, 'utf8').digest();
    expect(Buffer.from(await fast.sign(text))).toEqual(expected);
    // Node has a synchronous HMAC: the hex form comes at once, and is the same MAC.
    expect(fast.signHexNow?.(text)).toBe(expected.toString('hex'));
    expect(Buffer.from(await web.sign(text))).toEqual(expected);
    expect(await fast.verify(text, await web.sign(text))).toBe(true);
    expect(await web.verify(text, await fast.sign(text))).toBe(true);
  }
});

test('a MAC over another text, of another length, or by another key does not verify', async () => {
  for (const hmac of [hmacSha256(key), webCryptoHmac(key)]) {
    const mac = await hmac.sign('a');
    expect(await hmac.verify('b', mac)).toBe(false);
    expect(await hmac.verify('a', mac.subarray(0, 31))).toBe(false);
    expect(await hmac.verify('a', await hmacSha256(new Uint8Array(32).fill(1)).sign('a'))).toBe(false);
  }
});
