import process from 'node:process';
import type { ExecResult, RunCall, RunResult, SandboxSession } from '@hookline/core/plugin';
import { messageOf } from '@hookline/core/plugin';
import type { CommandHookOptions } from './command-keys.ts';
import { writeCommandLog } from './command-log.ts';
import { commandResult } from './command-result.ts';
import { passedThrough } from './full-environment.ts';

/** The runner-wide settings one command hook run uses. */
export interface CommandRunScope {
  readonly maxOutputBytes: number;
  readonly stderrTailBytes: number;
  /** The host environment `env_passthrough` names are read from, at each run. */
  readonly environment: () => Readonly<Record<string, string | undefined>>;
}

/** Where and under which name a run is logged, when the preset asks for logs. */
export interface CommandLogTarget {
  readonly path: string;
  readonly hook: string;
}

/**
 * Runs one command hook through `session` — the host session or the run's sandbox — with the
 * preset's environment variables, the context on stdin (as one line when the preset says so) and in
 * a 0600 context file that is removed afterwards (also after a timeout: the exec resolves only once
 * its processes were ended). When `log` is given, the run is appended to that file before the
 * result is returned.
 */
export async function runCommandHook(
  options: CommandHookOptions,
  call: RunCall,
  session: SandboxSession,
  scope: CommandRunScope,
  log?: CommandLogTarget,
): Promise<RunResult> {
  const started = new Date();
  const clock = performance.now();
  const { result, exec } = await execute(options, call, session, scope);
  if (log === undefined) return result;
  try {
    await writeCommandLog(log.path, {
      hook: log.hook,
      event: call.context.event,
      command: options.command,
      started,
      durationMs: performance.now() - clock,
      ending: ending(result, exec),
      ...(exec === undefined ? {} : { exec }),
    });
    return result;
  } catch (error) {
    // The hook ran; a log that cannot be written is worth a warning, not a failure.
    return {
      ...result,
      warnings: [...(result.warnings ?? []), `could not write the log ${log.path}: ${messageOf(error)}`],
    };
  }
}

async function execute(
  options: CommandHookOptions,
  call: RunCall,
  session: SandboxSession,
  scope: CommandRunScope,
): Promise<{ result: RunResult; exec?: ExecResult }> {
  const { context, contextJson, preset } = call;
  const details = { sandbox: session.provider };
  const cwd = context['cwd'];
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) {
    return {
      result: {
        status: 'failed',
        error: `the context's cwd must be a non-empty string, got ${JSON.stringify(cwd)}`,
        details,
      },
    };
  }
  const maxOutputBytes = options.max_output_bytes ?? scope.maxOutputBytes;
  // A fresh object: the preset may hand out a shared one, and the context file variable is added to
  // it. The preset's variables win over passed-through ones of the same name.
  const env = {
    ...passedThrough(scope.environment(), options.env_passthrough),
    ...preset.command.environment.variables(context, contextJson),
  };
  // The trace context as environment variables, the carrier OpenTelemetry specifies for processes.
  if (call.traceContext !== undefined) {
    for (const [name, value] of Object.entries(call.traceContext)) env[name.toUpperCase().replaceAll('-', '_')] = value;
  }
  const fileVariable = preset.command.environment.contextFileVariable;
  let contextFile: string | undefined;
  try {
    if (fileVariable !== undefined) {
      try {
        contextFile = await session.writeFile({ name: contextFileName(), data: contextJson, mode: 0o600 });
      } catch (error) {
        return {
          result: { status: 'failed', error: `could not write the context file: ${messageOf(error)}`, details },
        };
      }
      env[fileVariable] = contextFile;
    }
    // The directory the command runs in; the host's own when the context has no cwd (host and local
    // sessions run there; another sandbox's default directory is its own business).
    const directoryVariable = preset.command.environment.workingDirectoryVariable;
    if (directoryVariable !== undefined) {
      const directory =
        cwd ?? (session.provider === 'host' || session.provider === 'local' ? process.cwd() : undefined);
      if (directory !== undefined) env[directoryVariable] = directory;
    }
    let exec: ExecResult;
    try {
      exec = await session.exec({
        command: options.command,
        shell: preset.command.shell,
        env,
        // Preset agent sends the full context as one JSON line: a reader of lines needs the newline.
        stdin: preset.command.stdinLine === true ? `${contextJson}\n` : contextJson,
        ...(cwd === undefined ? {} : { cwd }),
        signal: call.signal,
        maxOutputBytes,
        ...(call.onProcessStarted === undefined ? {} : { onStarted: call.onProcessStarted }),
      });
    } catch (error) {
      return { result: { status: 'failed', error: messageOf(error), details } };
    }
    const result = commandResult(exec, {
      provider: session.provider,
      maxOutputBytes,
      stderrTailBytes: scope.stderrTailBytes,
      abortReason: () =>
        call.signal.aborted ? messageOf(call.signal.reason) : `the ${session.provider} session ended`,
      event: context.event,
      preset,
    });
    return { result, exec };
  } finally {
    // The file holds the context; leaving it behind would leak it. A failed removal has no one to report to.
    if (contextFile !== undefined) await session.removeFile(contextFile).catch(() => undefined);
  }
}

// How the run ended, for its log: the exit, the signal, or why it did not run to its end.
function ending(result: RunResult, exec: ExecResult | undefined): string {
  const how =
    exec === undefined
      ? undefined
      : exec.signal !== null
        ? `killed by ${exec.signal}`
        : `exit ${String(exec.exitCode)}`;
  if (result.status === 'failed') return how === undefined ? `failed: ${result.error}` : `${how} (${result.error})`;
  return how ?? 'unknown';
}

let contextFiles = 0;

/**
 * A context file name no other process writing into the same sandbox directory picks: this
 * process's id, a counter, and random bits. Not from node:crypto, whose loading costs a fresh
 * `hookline emit` ≈ 10 ms; the name is no secret (the directory is private to the session).
 */
function contextFileName(): string {
  contextFiles += 1;
  return `context-${process.pid.toString(16)}-${contextFiles.toString(16)}-${Math.floor(Math.random() * 0x1_0000_0000).toString(16)}.json`;
}
