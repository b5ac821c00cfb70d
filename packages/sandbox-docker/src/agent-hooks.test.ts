// Hooks started by the container's agent rather than a Docker exec, and the exec fallback once the agent is gone.
import { describe, expect, test } from 'vitest';
import { docker, freshRunId, testSandbox, text, topCommands } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe } from '../test-support/docker-probe.ts';
import type { DockerSandboxSession } from './docker-session.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'agent-hooks.test.ts');

const never = new AbortController().signal;

/**
 * Prints the hook's parent (`0`: none in the container, so a Docker exec; otherwise the agent's
 * name from its command line) and whether the hook leads its own session, as a Docker exec's process does.
 */
const WHO_STARTED_ME =
  'read -r s </proc/$$/stat; set -- ${s##*) }; [ "$4" = $$ ] && echo session-leader; if [ "$PPID" = 0 ]; then echo exec; else grep -q hookline-agent /proc/$PPID/cmdline && echo hookline-agent; fi';

/** The host pid of the container's agent: the `hookline-agent` process whose parent is the container's main process. */
async function agentPid(containerId: string): Promise<number> {
  const top = await docker.getContainer(containerId).top({ ps_args: '-eo pid,ppid,args' });
  const rows = ((top.Processes ?? []) as string[][]).map(([pid, ppid, ...args]) => ({
    pid: Number(pid),
    ppid: Number(ppid),
    args: args.join(' '),
  }));
  const agents = rows.filter((row) => row.args.includes('hookline-agent') && !row.args.includes('docker-init'));
  const main = agents.find((row) => !agents.some((other) => other.pid === row.ppid));
  const agent = agents.find((row) => row.ppid === main?.pid);
  if (agent === undefined) throw new Error(`no agent among ${JSON.stringify(rows)}`);
  return agent.pid;
}

async function leftovers(session: DockerSandboxSession): Promise<string[]> {
  return (await topCommands(session.container.containerId)).filter((command) => !command.includes('hookline-agent'));
}

describe.skipIf(!probe.available)('hooks started by the agent', () => {
  test('a hook is forked by the agent, in its own session, as the sandbox user, with its env, cwd, stdin and exit code', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('agent'), never);
    try {
      const who = await session.exec({ command: WHO_STARTED_ME });
      expect(text(who.stdout)).toBe('session-leader\nhookline-agent\n');
      expect(who.warnings).toEqual([]);
      const result = await session.exec({
        command: 'cat; printf "%s|" "$(id -u):$(id -g)" "$PWD" "$ODD" "$(umask)"; echo oops >&2; exit 42',
        stdin: `{"quote":"it's \\\\ \\n"}\n\u0000x`,
        env: { ODD: "a'b\nc $HOME `x` \\" },
        cwd: '/tmp',
      });
      expect(result.exitCode).toBe(42);
      expect(text(result.stdout)).toBe(
        `{"quote":"it's \\\\ \\n"}\n\u0000x65534:65534|/tmp|a'b\nc $HOME \`x\` \\|0022|`,
      );
      expect(text(result.stderr)).toBe('oops\n');
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('binary output, a hook that never reads its stdin, and a killed hook all come back as from an exec', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('agent-io'), never);
    try {
      const binary = await session.exec({ command: 'printf "\\000\\001\\377\\n\\r"; printf "\\377" >&2' });
      expect([...binary.stdout]).toEqual([0, 1, 255, 10, 13]);
      expect([...binary.stderr]).toEqual([255]);
      // Under the limit above which stdin goes through an exec: a file the hook never opens.
      const ignored = await session.exec({ command: `${WHO_STARTED_ME}; exit 0`, stdin: 'x'.repeat(60_000) });
      expect(ignored.exitCode).toBe(0);
      expect(text(ignored.stdout)).toContain('hookline-agent');
      const killed = await session.exec({ command: 'kill -9 $$' });
      expect(killed.exitCode).toBe(137);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('hooks the agent does not take go through docker exec: a stdin over 64 KiB, a variable name a shell cannot export', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('agent-exec'), never);
    try {
      const large = await session.exec({ command: `wc -c; ${WHO_STARTED_ME}`, stdin: 'y'.repeat(100_000) });
      expect(text(large.stdout)).toBe('100000\nsession-leader\nexec\n');
      const odd = await session.exec({
        command: `tr "\\0" "\\n" </proc/$$/environ | grep -c "^odd.name=1$"; ${WHO_STARTED_ME}`,
        env: { 'odd.name': '1' },
      });
      expect(text(odd.stdout)).toBe('1\nsession-leader\nexec\n');
      expect(large.warnings).toEqual([]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('a fork the pids limit refuses does not take the agent down: once the bomb is stopped, hooks go through the agent again', async () => {
    const provider = testSandbox({ pids: 32 });
    const session = await provider.doOpen(freshRunId('agent-pids'), never);
    try {
      // The hook's main process forks once, then never again, so only the timeout ends it.
      const bomb = session.exec({
        command: 'while :; do (sleep 30 &) 2>/dev/null; done & exec sleep 300',
        signal: AbortSignal.timeout(2_000),
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Starting a hook needs forks in the agent, which the limit refuses now: each fails, none hangs.
      const during = await Promise.allSettled([session.exec({ command: 'true' }), session.exec({ command: 'true' })]);
      for (const outcome of during)
        if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/limit of 32 processes|fork/);
      expect((await bomb).aborted).toBe(true);
      const after = await session.exec({ command: WHO_STARTED_ME });
      expect(text(after.stdout)).toBe('session-leader\nhookline-agent\n');
      expect(after.warnings).toEqual([]);
      expect(session.warnings).toEqual([]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });
});

describe.skipIf(!probe.available)('when the agent is gone', () => {
  test('the next hook runs through docker exec and says so; context files and stopping still work', async () => {
    const warnings: string[] = [];
    const provider = testSandbox({ onWarning: (message) => warnings.push(message) });
    const runId = freshRunId('agent-gone');
    const session = await provider.doOpen(runId, never);
    try {
      const container = session.container.containerId;
      process.kill(await agentPid(container), 'SIGKILL');
      await expect
        .poll(() => session.exec({ command: WHO_STARTED_ME }).then((result) => text(result.stdout)), {
          timeout: 5_000,
          interval: 100,
        })
        .toBe('session-leader\nexec\n');
      const next = await session.exec({ command: 'echo via exec' });
      expect(text(next.stdout)).toBe('via exec\n');
      expect(next.warnings).toEqual([
        expect.stringMatching(/^the container's agent exited \(status 137\); this hook ran through docker exec$/),
      ]);
      expect(warnings).toEqual([
        `the container's agent exited (status 137): hooks of run "${runId}" go through docker exec, which costs tens of milliseconds more each`,
      ]);
      expect(session.warnings).toEqual(warnings);
      expect(session.container.containerId).toBe(container);

      const path = await session.writeFile({ name: 'after.json', data: '{"still":"written"}' });
      expect(text((await session.exec({ command: `cat ${path}; stat -c %a ${path}` })).stdout)).toBe(
        '{"still":"written"}600\n',
      );
      await session.removeFile(path);
      expect((await session.exec({ command: `test ! -e ${path}` })).exitCode).toBe(0);

      const stopped = await session.exec({ command: 'setsid sleep 301 & sleep 302', signal: AbortSignal.timeout(500) });
      expect(stopped.aborted).toBe(true);
      expect(await leftovers(session)).toEqual([]);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('a hook running when the agent dies still completes: its report and output arrive, collected by an exec', async () => {
    const provider = testSandbox();
    const session = await provider.doOpen(freshRunId('agent-dies'), never);
    try {
      const running = session.exec({ command: 'sleep 1; echo finished; exit 4' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(await agentPid(session.container.containerId), 'SIGKILL');
      const result = await running;
      expect(result.exitCode).toBe(4);
      expect(text(result.stdout)).toBe('finished\n');
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });
});
