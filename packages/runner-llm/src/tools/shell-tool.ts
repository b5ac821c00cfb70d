import * as v from 'valibot';
import { messageOf } from '@hookline/core/plugin';
import type { AgentTool } from './agent-tool.ts';
import { defineAgentTool } from './define-agent-tool.ts';
import { limitText } from './limit-text.ts';

/**
 * `shell`: runs a command with the preset's shell in the hook's session — the run's sandbox when
 * the hook is sandboxed (local, bubblewrap or docker), else the host — in the context's `cwd` when it has one.
 * A non-zero exit is reported to the model as an error result, with both streams.
 */
export const shellTool: AgentTool = defineAgentTool({
  name: 'shell',
  description:
    'Run a shell command in the working directory and get its exit code, stdout and stderr. Output beyond a size limit is cut. Use it to inspect the project (git status, ls, test commands).',
  input: v.object({ command: v.pipe(v.string(), v.regex(/\S/), v.description('The command line, run with sh -c.')) }),
  usage: 'shell needs {"command": "<a non-empty command line>"}',
  async run({ command }, scope) {
    const { call } = scope;
    const cwd = call.context['cwd'];
    const session = scope.shellSession();
    let result;
    try {
      result = await session.exec({
        command,
        shell: call.preset.command.shell,
        ...(typeof cwd === 'string' && cwd !== '' ? { cwd } : {}),
        signal: call.signal,
        maxOutputBytes: scope.outputBytes,
      });
    } catch (error) {
      return { text: `the command could not be started: ${messageOf(error)}`, isError: true };
    }
    const decoder = new TextDecoder();
    const stdout = decoder.decode(result.stdout);
    const stderr = decoder.decode(result.stderr);
    const status =
      result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`;
    const sections = [
      `${status} (ran in the ${session.provider} session)`,
      `stdout:${result.stdoutTruncated ? ' (cut at the size limit)' : ''}\n${stdout}`,
      `stderr:${result.stderrTruncated ? ' (cut at the size limit)' : ''}\n${stderr}`,
    ];
    const limited = limitText(sections.join('\n'), scope.outputBytes);
    return {
      text: limited.truncated ? `${limited.text}\n[output cut at ${scope.outputBytes} bytes]` : limited.text,
      isError: result.exitCode !== 0,
    };
  },
});
