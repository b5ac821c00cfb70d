/** One notification, in the shape of ntfy's "publish as JSON" API. */
export interface Notification {
  readonly topic: string;
  readonly message: string;
  readonly title?: string;
  readonly priority?: number;
  readonly tags?: readonly string[];
}

/** Delivered, or why not: the HTTP status, or the network error. Never throws. */
export type Delivery = { readonly ok: true; readonly status: number } | { readonly ok: false; readonly error: string };

/**
 * POSTs the notification as JSON to the server's base URL, which publishes it to `topic` (ntfy's
 * JSON publishing: no header encoding limits for non-ASCII titles). Redirects are not followed: a
 * 3xx is a misconfigured server URL, not a delivery.
 */
export async function sendNotification(
  server: string,
  notification: Notification,
  signal: AbortSignal,
  fetcher: typeof fetch,
): Promise<Delivery> {
  // The server's own path is kept: a self-hosted ntfy may live under a prefix (https://host/ntfy/).
  const url = new URL(server.endsWith('/') ? server : `${server}/`);
  try {
    const response = await fetcher(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notification),
      redirect: 'manual',
      signal,
    });
    // Drain the body so the connection goes back to the pool.
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return {
      ok: false,
      error: `ntfy server ${url.origin} answered ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`} for topic "${notification.topic}"`,
    };
  } catch (error) {
    if (signal.aborted) return { ok: false, error: 'the notification was cancelled (deadline or shutdown)' };
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return { ok: false, error: `could not reach ntfy server ${url.origin}: ${cause ?? (error as Error).message}` };
  }
}
