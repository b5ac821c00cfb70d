/**
 * A session key for an event emitted from the command line without one (arc's `run_id`, agent's
 * `session_id`): `cli-<UTC time>-<6 hex>`, e.g. `cli-20250301T120000Z-3fa2c1` — sortable,
 * recognisable as the CLI's, and unique enough that two invocations in the same second get separate
 * sandbox sessions.
 */
export function cliSessionKey(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  // Math.random rather than crypto: this is a label, not a secret, and node:crypto costs startup time.
  const random = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0');
  return `cli-${stamp}-${random}`;
}
