/**
 * Host variables a sandbox passes to its processes: what a shell and ordinary tools need to
 * run and format text, nothing that usually holds a credential. Every other host variable stays out
 * unless a hook names it in `env_passthrough`; the preset's own variables come with each exec.
 */
export const SANDBOX_VARIABLES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'TERM',
  'TZ',
  'TMPDIR',
];

// The locale categories: LC_ALL, LC_CTYPE, LC_MESSAGES, … (POSIX names them all LC_<upper case>).
const LOCALE_VARIABLE = /^LC_[A-Z]+$/;

/** Whether a host variable of this name reaches a sandboxed process by the allow-list. */
export function isSandboxVariable(name: string): boolean {
  return SANDBOX_VARIABLES.includes(name) || LOCALE_VARIABLE.test(name);
}

/**
 * The base environment of a sandboxed process: the allow-listed variables of `environment` (usually
 * the host's), without unset entries. An allow-list, not a deny-list: a credential under a name
 * nobody thought of (`DATABASE_URL`, `PGPASSWORD`, `SSH_AUTH_SOCK`) stays out too.
 */
export function sandboxEnvironment(environment: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && isSandboxVariable(name)) kept[name] = value;
  }
  return kept;
}
