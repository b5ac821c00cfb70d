import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readOptionalFile, writePrivateFile } from './private-files.ts';

/**
 * The user's token (`serve-token`, mode 0600), made on first use: 32 random bytes as hex. Whoever can
 * read it is this user, so a process of another user on the machine cannot call the TCP listener.
 */
export function loadOrCreateToken(tokenFile: string): string {
  const existing = readOptionalFile(tokenFile)?.trim();
  if (existing !== undefined && /^[0-9a-f]{64}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('hex');
  writePrivateFile(tokenFile, `${token}\n`);
  return token;
}

/**
 * Whether a request carries the token: `Authorization: Bearer <token>` (what Claude Code's http hooks
 * send with `headers` and `allowedEnvVars`) or `X-Hookline-Token: <token>`. Compared in constant time.
 */
export function carriesToken(headers: Readonly<Record<string, string | string[] | undefined>>, token: string): boolean {
  const authorization = headers['authorization'];
  const bearer =
    typeof authorization === 'string' && /^bearer\s+/i.test(authorization)
      ? authorization.replace(/^bearer\s+/i, '').trim()
      : undefined;
  const header = headers['x-hookline-token'];
  const given = bearer ?? (typeof header === 'string' ? header.trim() : undefined);
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
