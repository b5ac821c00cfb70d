import process from 'node:process';
import { format } from 'node:util';
import { agentNames, builtInPresets, findAgentPreset, type AgentAdapter, type AgentCall } from '@hookline/core';
import { bridgeAnswer } from '../bridge/bridge-answer.ts';
import { startDeadline } from '../bridge/bridge-deadline.ts';
import { failureReason } from '../bridge/failure-reason.ts';
import { readAllStdin } from '../bridge/read-all-stdin.ts';
import { runBridgedEvent } from '../bridge/run-bridged-event.ts';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';
import type { CommandModule } from '../command.ts';
import type { bridge } from '../command-specs.ts';
import { loadSetup, type Setup } from '../config/load-setup.ts';
import { nodeFlagsRestart } from '../node-flags-restart.ts';
import { REQUIRE_TRUST_VARIABLE } from '../serve/require-trust-variable.ts';

/**
 * `hookline bridge <agent>`: stands in for the agent's hook command. Everything that can go wrong
 * ends in an answer the agent honours — a refusal for a guard event — written once on stdout before
 * the deadline; nothing else ever reaches stdout.
 */
export const bridgeCommand = {
  async run({ values, positionals: { agent: name } }, io) {
    const owner = findAgentPreset(builtInPresets.all, name);
    if (owner === undefined) {
      // No format to answer in: exit 2 with the reason on stderr is the refusal most agents read.
      io.stderr.write(
        `hookline bridge: unknown agent "${name}"; known agents: ${agentNames(builtInPresets.all).join(', ')}. The call is refused.\n`,
      );
      return 2;
    }
    const adapter = owner.agent;
    const answer = bridgeAnswer(io);
    // Hooks' and plugins' output, warnings and summaries go to stderr: stdout is the agent's.
    const quiet: CliIo = { ...io, stdout: io.stderr };
    redirectConsole(io);
    let call: AgentCall | undefined;
    let closeEngine: (() => Promise<void>) | undefined;
    const fail = (error: unknown): number =>
      answer.give(adapter.writeFailure(call, failureReason(error, call === undefined || adapter.isGuard(call))));
    // A crash or the deadline answers at once, then ends the hooks' process groups and exits.
    const failAndExit = (error: unknown): void => {
      const code = fail(error);
      void Promise.race([closeEngine?.(), sleep(2000)]).finally(() => process.exit(code));
    };
    process.on('uncaughtException', failAndExit);
    process.on('unhandledRejection', failAndExit);
    const deadlineMs = deadlineOf(values.deadline, adapter, io);
    const stopDeadline = startDeadline(deadlineMs, () =>
      failAndExit(
        new CliError(
          'HOOKLINE_CLI_BRIDGE_DEADLINE',
          `its hooks did not decide within ${deadlineMs / 1000} s, the bridge's deadline; give slow hooks a timeout_ms below it`,
        ),
      ),
    );
    try {
      // The daemon's shim falls back here asking for its trust rule: an untrusted project's config is
      // not even loaded (loading may import its plugins).
      if (io.env[REQUIRE_TRUST_VARIABLE] === '1') {
        const untrusted = await (await import('../serve/require-trust.ts')).untrustedProject(io);
        if (untrusted !== undefined) {
          call = readCall(adapter, await readAllStdin(io), values.event);
          return fail(untrusted);
        }
      }
      // The config first: a restart for script hooks' Node flags must find stdin unread.
      const setup = await loadBridgeSetup(values, io);
      call = readCall(adapter, await readAllStdin(io), values.event);
      if ('error' in setup) return fail(setup.error);
      const wire = await runBridgedEvent({
        owner,
        call,
        setup,
        journal: values.journal,
        io: quiet,
        onEngine: (close) => (closeEngine = close),
      });
      return answer.give(wire);
    } catch (error) {
      if (nodeFlagsRestart(error) !== undefined) throw error;
      return fail(error);
    } finally {
      stopDeadline();
      process.off('uncaughtException', failAndExit);
      process.off('unhandledRejection', failAndExit);
    }
  },
} satisfies CommandModule<typeof bridge>;

// The setup, or why it could not be loaded (answered once the call is known); a restart is thrown.
async function loadBridgeSetup(
  values: { readonly config?: string[]; readonly preset?: string },
  io: CliIo,
): Promise<Setup | { readonly error: unknown }> {
  try {
    return await loadSetup({
      configFiles: values.config,
      preset: values.preset,
      cwd: io.cwd,
      env: io.env,
      runsHooks: true,
      guardsFailClosed: true,
      skipsBridgeEntries: true,
    });
  } catch (error) {
    if (nodeFlagsRestart(error) !== undefined) throw error;
    return { error };
  }
}

function readCall(adapter: AgentAdapter, text: string, entryEvent: string | undefined): AgentCall {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new CliError(
      'HOOKLINE_CLI_BRIDGE_INPUT',
      `the hook input on stdin is not JSON (${text.length} characters); run this command from ${adapter.title}'s hook settings`,
    );
  }
  const call = adapter.readCall(payload, entryEvent);
  if ('problem' in call) throw new CliError('HOOKLINE_CLI_BRIDGE_INPUT', call.problem);
  return call;
}

// A wrong --deadline must not stop the bridge from answering: the agent's default is used instead.
function deadlineOf(value: string | undefined, adapter: AgentAdapter, io: CliIo): number {
  if (value === undefined) return adapter.bridgeDeadlineMs;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
  io.stderr.write(
    `hookline bridge: --deadline must be a positive number of seconds, not "${value}"; using ${adapter.bridgeDeadlineMs / 1000}\n`,
  );
  return adapter.bridgeDeadlineMs;
}

// Code that logs with console.log (a plugin, a script hook in this process) must not corrupt the answer.
function redirectConsole(io: CliIo): void {
  const toStderr = (...args: unknown[]) => void io.stderr.write(`${format(...args)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
