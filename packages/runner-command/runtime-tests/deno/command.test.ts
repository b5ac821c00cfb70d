// The command runner on Deno, through its node:child_process compatibility: the same sources the npm
// build compiles, run by Deno's own TypeScript and module loader, with the core's loader and engine.
import { createHookEngine, loadConfig, type EmitOutcome } from '@hookline/core';
import { memoryJournal } from '@hookline/core/testing';
import { commandRunner, localSandbox } from '../../src/index.ts';
import { assert, assertEquals } from '../../../core/runtime-tests/deno/assert.ts';

const context = { run_id: 'deno-run', workflow_name: 'deno', node_id: 'build' };

async function emitOnce(toml: string, extra: Record<string, unknown> = {}): Promise<EmitOutcome> {
  const runners = [commandRunner()];
  const config = loadConfig([{ text: toml, source: 'deno.toml' }], { runners });
  const engine = createHookEngine({ config, runners, sandbox: localSandbox() });
  try {
    const outcome = await engine.emit('stage_start', { ...context, ...extra });
    return await outcome.settled;
  } finally {
    await engine.close();
  }
}

function groupIsGone(groupId: number): boolean {
  try {
    Deno.kill(-groupId, 'SIGCONT');
  } catch {
    return true;
  }
  // Signalable: running, or a zombie nobody reaped. Only /proc can tell them apart.
  try {
    for (const entry of Deno.readDirSync('/proc')) {
      if (!/^\d+$/.test(entry.name)) continue;
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === groupId && fields[0] !== 'Z') return false;
    }
  } catch {
    // A process vanished while we looked: look again next time.
    return false;
  }
  return true;
}

Deno.test(
  'a sandboxed command hook answers with its JSON through exit 2, with the context on stdin and in a 0600 file',
  async () => {
    const scratch = await Deno.makeTempDir();
    Deno.env.set('DENO_TEST_API_KEY', 'must-not-leak');
    try {
      const command = [
        `cat > ${scratch}/stdin.json`,
        `stat -c %a "$ARC_HOOK_CONTEXT" > ${scratch}/mode`,
        `echo "$ARC_HOOK_CONTEXT" > ${scratch}/path`,
        `env > ${scratch}/env`,
        `echo '{"decision":"skip","reason":"nothing to build"}'`,
        'exit 2',
      ].join('; ');
      const outcome = await emitOnce(
        `[[hooks]]\nname = "gate"\nevent = "stage_start"\ncommand = ${JSON.stringify(command)}\n`,
      );
      const report = outcome.hooks[0];
      assert(report?.status === 'ok', `status ${String(report?.status)}: ${String(report?.error)}`);
      assertEquals(report.decision, { decision: 'skip', reason: 'nothing to build' });
      assertEquals(report['exit_code'], 2);
      assertEquals(report['sandbox'], 'local');
      assertEquals(outcome.decision, 'skip');
      assertEquals(JSON.parse(await Deno.readTextFile(`${scratch}/stdin.json`)), { event: 'stage_start', ...context });
      assertEquals((await Deno.readTextFile(`${scratch}/mode`)).trim(), '600');
      const path = (await Deno.readTextFile(`${scratch}/path`)).trim();
      assert(!(await exists(path)), `the context file ${path} was left behind`);
      const env = await Deno.readTextFile(`${scratch}/env`);
      assert(env.includes('ARC_RUN_ID=deno-run\n') && env.includes('ARC_NODE_ID=build\n'), 'the arc variables are set');
      assert(!env.includes('DENO_TEST_API_KEY'), 'the local sandbox drops *_API_KEY');
    } finally {
      Deno.env.delete('DENO_TEST_API_KEY');
      await Deno.remove(scratch, { recursive: true });
    }
  },
);

Deno.test('a timed-out hook is timed_out and its whole process group is ended', async () => {
  const scratch = await Deno.makeTempDir();
  try {
    const command = `echo $$ > ${scratch}/pid; sleep 300 & sleep 300`;
    const outcome = await emitOnce(
      `[[hooks]]\nevent = "stage_start"\ntimeout_ms = 500\ncommand = ${JSON.stringify(command)}\n`,
    );
    const report = outcome.hooks[0];
    assertEquals(report?.status, 'timed_out');
    assertEquals(report?.error, 'hook timed out after 500 ms');
    const groupId = Number((await Deno.readTextFile(`${scratch}/pid`)).trim());
    // close() waited for the runner, which ends the group (SIGTERM, then SIGKILL after 2 s).
    let gone = groupIsGone(groupId);
    for (let attempt = 0; attempt < 100 && !gone; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      gone = groupIsGone(groupId);
    }
    assert(gone, `process group ${groupId} still has running members`);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

Deno.test('a missing working directory fails the hook with an error naming it', async () => {
  const outcome = await emitOnce(`[[hooks]]\nevent = "stage_start"\ncommand = "exit 0"\nsandbox = false\n`, {
    cwd: '/nonexistent/hookline-deno',
  });
  const report = outcome.hooks[0];
  assertEquals(report?.status, 'failed');
  assertEquals(report?.error, 'the working directory "/nonexistent/hookline-deno" does not exist');
  assertEquals(outcome.decision, 'block');
});

Deno.test(
  'agent preset: the context arrives as one stdin line, and a non-zero exit vetoes with stderr as the reason',
  async () => {
    const scratch = await Deno.makeTempDir();
    try {
      const runners = [commandRunner()];
      const toml = `preset = "agent"\n[[hooks]]\nevent = "pre_tool_use"\ntool_name = "Bash"\n[hooks.action]\ntype = "shell"\ncommand = "cat > ${scratch}/stdin; echo ' not today ' >&2; exit 1"\n`;
      const engine = createHookEngine({
        config: loadConfig([{ text: toml, source: 'agent.toml' }], { runners }),
        runners,
      });
      const outcome = await engine.emit('pre_tool_use', { session_id: 's', tool_name: 'Bash' });
      await engine.close();
      assertEquals([outcome.decision, outcome.reason], ['block', 'not today']);
      assertEquals(
        await Deno.readTextFile(`${scratch}/stdin`),
        '{"event":"pre_tool_use","session_id":"s","tool_name":"Bash"}\n',
      );
    } finally {
      await Deno.remove(scratch, { recursive: true });
    }
  },
);

Deno.test('task preset: each command is logged under <logRoot>/<task>/hooks/<point>-NN.log', async () => {
  const scratch = await Deno.makeTempDir();
  try {
    const runners = [commandRunner({ logRoot: `${scratch}/runs` })];
    const config = loadConfig(
      [{ text: 'preset = "task"\n[hooks]\nafter_merge = ["echo \\"$ARC_TASK merged\\""]\n', source: 'task.toml' }],
      { runners },
    );
    const engine = createHookEngine({ config, runners, journal: memoryJournal(), journalKey: false });
    await (
      await engine.emit('after_merge', { task: 't-1' })
    ).settled;
    await engine.close();
    const log = await Deno.readTextFile(`${scratch}/runs/t-1/hooks/after_merge-01.log`);
    assert(log.includes('result: exit 0\n') && log.includes('--- stdout ---\nt-1 merged\n'), log);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
