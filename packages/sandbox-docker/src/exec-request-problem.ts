import type { ExecRequest } from '@hookline/core/plugin';

/**
 * Why a request cannot be handed to exec(2), if it cannot: strings there are NUL-terminated, so a
 * NUL byte would cut a command short (or the runtime refuses it with a bare "invalid argument").
 */
export function execRequestProblem(request: ExecRequest): string | undefined {
  const parts = typeof request.command === 'string' ? [request.command] : request.command;
  if (parts.length === 0) return 'the command is an empty argv';
  if (parts.some((part) => part.includes('\0'))) return 'the command contains a NUL byte, which exec(2) cannot take';
  for (const [name, value] of Object.entries(request.env ?? {})) {
    if (name === '' || name.includes('=') || name.includes('\0') || value.includes('\0'))
      return `environment variable ${JSON.stringify(name)} cannot be passed to exec(2)`;
  }
  if (request.cwd?.includes('\0')) return 'the working directory contains a NUL byte';
  return undefined;
}
