/** Whether `HOOKLINE_SCRIPT_HOST` turns the host off (`off`, `0`, `false`, `no`). */
export function scriptHostDisabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return ['off', '0', 'false', 'no'].includes((env['HOOKLINE_SCRIPT_HOST'] ?? '').trim().toLowerCase());
}
