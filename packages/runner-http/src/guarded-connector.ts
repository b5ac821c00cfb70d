import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import { guardedLookup, type LookupFunction } from './guarded-lookup.ts';
import { PrivateAddressError } from './private-address-error.ts';
import { privateAddressKind } from './private-address.ts';

/**
 * An undici connector that never completes a connection to a private address. Three gates, because
 * each alone has a gap: an IP-literal host is checked before any socket exists (sockets skip DNS
 * for literals); a host name's DNS answers are filtered by the lookup (so only public answers are
 * dialled); and the socket's actual peer address is checked once connected, in case a runtime
 * ignores the `lookup` option.
 */
export function guardedConnector(
  options: buildConnector.BuildOptions,
  lookup?: LookupFunction,
): buildConnector.connector {
  const connect = buildConnector({ ...options, lookup: guardedLookup(lookup) });
  return (target, callback) => {
    // undici passes IPv6 literals without their brackets.
    if (isIP(target.hostname) !== 0) {
      const kind = privateAddressKind(target.hostname);
      if (kind !== undefined) {
        queueMicrotask(() => callback(new PrivateAddressError(target.hostname, kind), null));
        return;
      }
    }
    // Returning the socket lets undici cancel a connection attempt that no request waits for.
    return connect(target, (error, socket) => {
      if (error !== null || socket === null) {
        callback(error, null);
        return;
      }
      const peer = socket.remoteAddress;
      const kind = peer === undefined ? 'unknown peer address' : privateAddressKind(peer);
      if (kind !== undefined) {
        socket.destroy();
        callback(new PrivateAddressError(peer ?? '?', kind, target.hostname), null);
        return;
      }
      callback(null, socket);
    });
  };
}
