import type { HookDefinition, RunCall, RunResult } from '@hookline/core/plugin';
import type IsolatedVM from 'isolated-vm';
import { messageOf } from '@hookline/core/plugin';
import type { IsolatePools, PooledIsolate } from './isolate-pools.ts';
import { loadIsolatedVm } from './load-isolated-vm.ts';
import { readAnswer } from './read-answer.ts';
import { resolveScriptFile } from './resolve-script-file.ts';
import { runInIsolate, type IsolateRunOutcome } from './run-in-isolate.ts';
import type { ScriptFiles } from './script-files.ts';
import type { ScriptHookOptions } from './script-keys.ts';
import { INLINE_SCRIPT_FILENAME, scriptSource, type ScriptSource } from './script-source.ts';

/** What every run of one runner shares. */
export interface ScriptRunScope {
  /** For hooks without `memory_limit_mb`. */
  readonly memoryLimitMb: number;
  readonly pools: IsolatePools;
  readonly files: ScriptFiles;
  /** Inline programs, built once per loaded hook. */
  readonly inline: WeakMap<HookDefinition<ScriptHookOptions>, ScriptSource>;
  /** Why no script may run in this process, if that is so (see `allowNodeSnapshot`). */
  refusal(): string | undefined;
}

/**
 * Runs one script hook: finds its program (inline, or its file, read when it changed), leases an
 * isolate for the hook's memory limit, runs the program in a fresh context and reads the answer.
 * Every way it can end is a result, never a throw; an isolate that timed out, ran out of memory or
 * was aborted is disposed and the pool makes a new one for the next hook.
 */
export async function runScriptHook(
  hook: HookDefinition<ScriptHookOptions>,
  call: RunCall,
  scope: ScriptRunScope,
): Promise<RunResult> {
  const refusal = scope.refusal();
  if (refusal !== undefined) return { status: 'failed', error: refusal };
  const { options } = hook;
  let source = scope.inline.get(hook);
  if (source === undefined && options.script !== undefined) {
    source = scriptSource(options.script, 'inline', INLINE_SCRIPT_FILENAME);
    scope.inline.set(hook, source);
  }
  if (source === undefined) {
    if (options.file === undefined) return { status: 'failed', error: 'the hook has neither `script` nor `file`' };
    const read = await scope.files.read(resolveScriptFile(options.file, hook.source.file));
    if (!read.ok) return { status: 'failed', error: read.error };
    source = read.source;
  }

  const signal = call.signal;
  let ivm: typeof IsolatedVM;
  try {
    ivm = await loadIsolatedVm();
  } catch (error) {
    return {
      status: 'failed',
      error: `isolated-vm could not be loaded (${messageOf(error)}); it is a native addon built when it is installed: reinstall it with a C++ toolchain and Node's headers (see @hookline/runner-script's README)`,
    };
  }
  const memoryLimitMb = options.memory_limit_mb ?? scope.memoryLimitMb;
  const pool = scope.pools.forLimit(memoryLimitMb, ivm);
  let member: PooledIsolate;
  try {
    member = await pool.acquire(signal);
  } catch (error) {
    return {
      status: 'failed',
      error: signal.aborted
        ? `the hook was stopped while it waited for an isolate: ${messageOf(signal.reason)}`
        : `no isolate could be created: ${messageOf(error)}`,
    };
  }
  let outcome: IsolateRunOutcome;
  try {
    outcome = await runInIsolate(member, source, call.contextJson, { signal, timeoutMs: call.timeoutMs + BACKSTOP_MS });
  } finally {
    if (!member.isolate.isDisposed) member.idleCpuTime = member.isolate.cpuTime;
    pool.release(member);
  }
  return outcomeResult(outcome, source, memoryLimitMb, call.timeoutMs);
}

// The engine's deadline (timeout_ms) decides a hook that runs too long: it reports the hook
// `timed_out` and aborts the run, which disposes the isolate. The isolate's own clocks are a backstop
// this much later, for a run whose abort never comes; set to the deadline itself, they raced the
// engine's timer, and one runaway script got either of two reports.
const BACKSTOP_MS = 1_000;

function outcomeResult(
  outcome: IsolateRunOutcome,
  source: ScriptSource,
  memoryLimitMb: number,
  timeoutMs: number,
): RunResult {
  switch (outcome.kind) {
    case 'answer':
      return readAnswer(outcome.text, source);
    case 'out-of-memory':
      return {
        status: 'failed',
        error: `script ran out of memory: its isolate passed the ${memoryLimitMb} MiB limit and was replaced (set memory_limit_mb if the hook needs more)`,
      };
    case 'timed-out':
      return {
        status: 'failed',
        error: `script ran past its timeout of ${timeoutMs} ms and was stopped ${BACKSTOP_MS} ms later; its isolate was disposed and replaced`,
      };
    case 'aborted':
      return { status: 'failed', error: `script stopped: ${messageOf(outcome.reason)}` };
    case 'broken':
      return { status: 'failed', error: `script could not run: ${outcome.error}` };
  }
}
