const MARKER = Symbol.for('hookline.runner-http.PrivateAddressError');

/**
 * A connection refused by `block_private_addresses`. It travels through undici as a connect error;
 * the runner turns it into the hook's `failed` report. `isInstance` survives duplicate installs.
 */
export class PrivateAddressError extends Error {
  readonly code = 'HOOKLINE_PRIVATE_ADDRESS';
  readonly [MARKER] = true;

  /**
   * @param address the refused address
   * @param kind why it is refused (`loopback`, `private`, …)
   * @param host the name that resolved to it, when the URL named a host rather than an address
   */
  constructor(address: string, kind: string, host?: string) {
    const via = host === undefined || host === address ? '' : `, which ${host} resolves to`;
    super(`refused to connect to private address ${address} (${kind})${via}; block_private_addresses = true allows public addresses only`);
    this.name = 'PrivateAddressError';
  }

  /** Whether `value` is a PrivateAddressError, from this copy of the package or another. */
  static isInstance(value: unknown): value is PrivateAddressError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
