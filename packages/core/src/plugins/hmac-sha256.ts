/** HMAC-SHA256 under one key: signs a text, or checks a MAC over one in constant time. */
export interface HmacSha256 {
  sign(text: string): Promise<Uint8Array>;
  verify(text: string, mac: Uint8Array): Promise<boolean>;
  /** The MAC as 64 hex digits, at once: only where the runtime has a synchronous HMAC. */
  readonly signHexNow?: (text: string) => string;
}

// The part of node:crypto this uses, described here so that core imports no `node:` module.
interface SyncCrypto {
  createSecretKey(key: Uint8Array): object;
  createHmac(
    algorithm: 'sha256',
    key: object,
  ): { update(text: string): { digest(): Uint8Array; digest(encoding: 'hex'): string } };
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/**
 * The runtime's synchronous HMAC when it has one (Node's and Deno's `node:crypto`, found through
 * `process.getBuiltinModule` — no import), else Web Crypto's. Both give the same MACs. The
 * synchronous one matters at webhook rates: Web Crypto hands every HMAC to a thread-pool job and
 * back (about a tenth of a durable delivery's CPU time in a profile, more on a busy machine); a
 * synchronous HMAC of a journal record takes a few microseconds.
 */
export function hmacSha256(key: Uint8Array): HmacSha256 {
  const sync = synchronousCrypto();
  return sync === undefined ? webCryptoHmac(key) : synchronousHmac(sync, key);
}

/** HMAC-SHA256 through Web Crypto (any runtime); `hmacSha256` uses it where there is nothing faster. */
export function webCryptoHmac(key: Uint8Array): HmacSha256 {
  const imported = crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  return {
    sign: async (text) => new Uint8Array(await crypto.subtle.sign('HMAC', await imported, encode(text))),
    // crypto.subtle.verify compares in constant time.
    verify: async (text, mac) => crypto.subtle.verify('HMAC', await imported, new Uint8Array(mac), encode(text)),
  };
}

function synchronousHmac(sync: SyncCrypto, key: Uint8Array): HmacSha256 {
  // A key object made once: handing createHmac the bytes makes one for every MAC.
  const secret = sync.createSecretKey(new Uint8Array(key));
  const mac = (text: string): Uint8Array => sync.createHmac('sha256', secret).update(text).digest();
  return {
    sign: async (text) => mac(text),
    // Hex straight from the digest: no bytes object, no conversion in JavaScript.
    signHexNow: (text) => sync.createHmac('sha256', secret).update(text).digest('hex'),
    verify: async (text, given) => {
      const expected = mac(text);
      return given.byteLength === expected.byteLength && sync.timingSafeEqual(given, expected);
    },
  };
}

function synchronousCrypto(): SyncCrypto | undefined {
  const runtime = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  try {
    const found = runtime.process?.getBuiltinModule?.('node:crypto') as Partial<SyncCrypto> | undefined;
    return typeof found?.createHmac === 'function' &&
      typeof found.createSecretKey === 'function' &&
      typeof found.timingSafeEqual === 'function'
      ? (found as SyncCrypto)
      : undefined;
  } catch {
    // A runtime that has the function but refuses the module: Web Crypto it is.
    return undefined;
  }
}

function encode(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}
