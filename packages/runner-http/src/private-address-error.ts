import { HooklineError } from '@hookline/core/plugin';

/**
 * A connection refused by `block_private_addresses`. It travels through undici as a connect error;
 * the runner turns it into the hook's `failed` report. `PrivateAddressError.isInstance` recognises it
 * from any installed copy of the package.
 */
export class PrivateAddressError extends HooklineError {
  /**
   * @param address the refused address
   * @param kind why it is refused (`loopback`, `private`, …)
   * @param host the name that resolved to it, when the URL named a host rather than an address
   */
  constructor(address: string, kind: string, host?: string) {
    const via = host === undefined || host === address ? '' : `, which ${host} resolves to`;
    super(
      'HOOKLINE_PRIVATE_ADDRESS',
      `refused to connect to private address ${address} (${kind})${via}; block_private_addresses = true allows public addresses only`,
    );
    this.name = 'PrivateAddressError';
  }
}
