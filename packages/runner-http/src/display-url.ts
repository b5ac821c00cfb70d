/** A URL as messages show it: without credentials or query string, which may carry tokens. */
export function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}${url.search === '' ? '' : '?…'}`;
}
