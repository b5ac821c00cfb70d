import { randomUUID } from 'node:crypto';
import type { ExecResult, RunCall, RunResult, SandboxSession } from '@hookline/core';
import type { CommandHookOptions } from './command-keys.ts';
import { commandResult } from './command-result.ts';

/** The runner-wide settings one command hook run uses. */
export interface CommandRunScope {
  readonly maxOutputBytes: number;
  readonly stderrTailBytes: number;
}

/**
 * Runs one command hook through `session` — the host session or the run's sandbox — with the
 * preset's environment variables, the context on stdin and in a 0600 context file that is removed
 * afterwards (also after a timeout: the exec resolves only once its processes were ended).
 */
export async function runCommandHook(options: CommandHookOptions, call: RunCall, session: SandboxSession, scope: CommandRunScope): Promise<RunResult> {
  const { context, contextJson, preset } = call;
  const details = { sandbox: session.provider };
  const cwd = context['cwd'];
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) {
    return { status: 'failed', error: `the context's cwd must be a non-empty string, got ${JSON.stringify(cwd)}`, details };
  }
  const maxOutputBytes = options.max_output_bytes ?? scope.maxOutputBytes;
  // A copy: the preset may hand out a shared object, and the context file variable is added to it.
  const env = { ...preset.environment.variables(context, contextJson) };
  const fileVariable = preset.environment.contextFileVariable;
  let contextFile: string | undefined;
  try {
    if (fileVariable !== undefined) {
      try {
        contextFile = await session.writeFile({ name: `context-${randomUUID()}.json`, data: contextJson, mode: 0o600 });
      } catch (error) {
        return { status: 'failed', error: `could not write the context file: ${messageOf(error)}`, details };
      }
      env[fileVariable] = contextFile;
    }
    let exec: ExecResult;
    try {
      exec = await session.exec({
        command: options.command,
        shell: preset.shell,
        env,
        stdin: contextJson,
        ...(cwd === undefined ? {} : { cwd }),
        signal: call.signal,
        maxOutputBytes,
      });
    } catch (error) {
      return { status: 'failed', error: messageOf(error), details };
    }
    return commandResult(exec, {
      provider: session.provider,
      maxOutputBytes,
      stderrTailBytes: scope.stderrTailBytes,
      abortReason: () => (call.signal.aborted ? messageOf(call.signal.reason) : `the ${session.provider} session ended`),
    });
  } finally {
    // The file holds the context; leaving it behind would leak it. A failed removal has no one to report to.
    if (contextFile !== undefined) await session.removeFile(contextFile).catch(() => undefined);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
