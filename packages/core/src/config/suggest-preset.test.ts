import { describe, expect, test } from 'vitest';
import { UnknownEventError } from '../errors/unknown-event-error.ts';
import { createHookEngine } from '../engine/create-hook-engine.ts';
import { scriptedRunner } from '../testing/scripted-runner.ts';
import { standInCommandRunner } from '../../test-support/stand-in-runners.ts';
import { loadConfig } from './load-config.ts';
import { configIssues } from '../../test-support/config-issues.ts';

const runners = [scriptedRunner(), standInCommandRunner().runner];

function issuesOf(...texts: string[]): string[] {
  return configIssues(() =>
    loadConfig(
      texts.map((text, index) => ({ text, source: `layer${index}.toml` })),
      { runners },
    ),
  );
}

// A coding agent's own settings file, as an agent keeps it, without the preset line.
const AGENT_SETTINGS = `# .agent/settings.toml
[[hooks]]
event = "post_tool_use"
tool_name = "FileWrite"
[hooks.action]
type = "shell"
command = "cargo fmt"

[[hooks]]
event = "pre_tool_use"
tool_name = "Bash"
action = { type = "shell", command = "./check.sh" }
`;

describe('a config written for another preset', () => {
  test('an agent settings file without preset = "agent" gets one issue that names the preset', () => {
    expect(issuesOf(AGENT_SETTINGS)).toEqual([
      'layer0.toml:3: the events "post_tool_use", "pre_tool_use" belong to preset "agent", not to preset "arc" (the default) — add preset = "agent" at the top of the file',
    ]);
  });

  test('a task file without preset = "task" gets one issue that names the preset', () => {
    expect(issuesOf('[hooks]\nafter_merge = ["git push origin --delete \\"$ARC_BRANCH\\""]\n')).toEqual([
      'layer0.toml:2: the event "after_merge" belongs to preset "task", not to preset "arc" (the default) — add preset = "task" at the top of the file',
    ]);
  });

  test('a file that names the wrong preset is told which one to write instead', () => {
    expect(issuesOf(`preset = "task"\n${AGENT_SETTINGS}`)).toEqual([
      'layer0.toml:1: the events "post_tool_use", "pre_tool_use" belong to preset "agent", not to preset "task" — write preset = "agent" instead of preset = "task"',
    ]);
  });

  test('with the preset line the same file loads', () => {
    const config = loadConfig([{ text: `preset = "agent"\n${AGENT_SETTINGS}`, source: 'settings.toml' }], { runners });
    expect(config.hooks.map((hook) => hook.event)).toEqual(['post_tool_use', 'pre_tool_use']);
  });

  test("a config of the preset's own events keeps its own issues, without a preset hint", () => {
    const issues = issuesOf('[[hooks]]\nevent = "stage_start"\ntype = "scripted"\nblockng = true\n');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain('unknown key `blockng`');
    expect(issues[0]).not.toContain('preset');
  });

  test('a file mixing events of two presets keeps every issue, and the foreign event names its preset', () => {
    const issues = issuesOf(
      '[[hooks]]\nevent = "stage_start"\ntype = "scripted"\n\n[[hooks]]\nevent = "pre_tool_use"\ntype = "scripted"\n',
    );
    expect(issues).toEqual([expect.stringContaining('layer0.toml:6: hooks[1] "pre_tool_use:')]);
    expect(issues[0]).toContain(
      'unknown event "pre_tool_use" for preset "arc" — it is an event of preset "agent" (set preset = "agent"); valid events: run_start',
    );
  });

  test("emitting another preset's event names that preset", async () => {
    const engine = createHookEngine({ config: loadConfig([], { runners }), runners });
    const error: unknown = await engine
      .emit('pre_tool_use', { run_id: 'r', workflow_name: 'w' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownEventError);
    expect((error as Error).message).toContain(
      'Unknown event "pre_tool_use" for preset "arc". It is an event of preset "agent": add preset = "agent" to the config.',
    );
    await engine.close();
  });
});
