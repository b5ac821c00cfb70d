/** The URL with its password (and any `password` query parameter) shown as `***`, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/** The secrets a message must never show: the URL's password (as written and decoded) and `PGPASSWORD`. */
export function secretsOf(url: string, environmentPassword: string | undefined): string[] {
  const secrets = [environmentPassword ?? ''];
  try {
    const parsed = new URL(url);
    secrets.push(parsed.password, decodeURIComponent(parsed.password));
    for (const [key, value] of parsed.searchParams) if (/pass/i.test(key)) secrets.push(value);
  } catch {
    const match = /\/\/[^:/@]*:([^@]*)@/.exec(url);
    if (match?.[1] !== undefined) secrets.push(match[1]);
  }
  return [...new Set(secrets.filter((secret) => secret !== ''))].sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced by `***` (a server or client may quote one back). */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}
