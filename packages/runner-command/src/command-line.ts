import type { ExecRequest } from '@hookline/core/plugin';
import { CommandStartError } from './command-start-error.ts';

/** The program and arguments an exec request stands for: `{shell} -c command`, or its argv as given. */
export function commandLine(request: ExecRequest): [file: string, ...args: string[]] {
  if (typeof request.command === 'string') return [request.shell ?? 'sh', '-c', request.command];
  const [file, ...args] = request.command;
  if (file === undefined || file === '')
    throw new CommandStartError('cannot start an empty argv: its first element must name a program');
  return [file, ...args];
}
