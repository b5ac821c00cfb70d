import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { PrivateAddressError } from './private-address-error.ts';
import { privateAddressKind } from './private-address.ts';

/** The shape of `dns.lookup` that `net.connect`'s `lookup` option calls. */
export type LookupFunction = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/**
 * Wraps a DNS lookup so that every private answer is dropped before the socket sees it: the
 * connection goes only to public addresses, and a name with none is refused. Checking the answers
 * (not the name) is what stops DNS rebinding and names like `localhost` or `*.nip.io`.
 */
export function guardedLookup(lookup: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, answers) => {
      if (error !== null) {
        callback(error, options.all === true ? [] : '');
        return;
      }
      const all = Array.isArray(answers) ? answers : [{ address: answers, family: 0 }];
      const allowed = all.filter((answer) => privateAddressKind(answer.address) === undefined);
      const first = allowed[0];
      if (first === undefined) {
        const refused = all[0];
        const kind = refused === undefined ? 'no address' : (privateAddressKind(refused.address) ?? 'private');
        callback(new PrivateAddressError(refused?.address ?? hostname, kind, hostname), options.all === true ? [] : '');
        return;
      }
      if (options.all === true) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}
