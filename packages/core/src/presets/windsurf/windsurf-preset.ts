import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import type { EventContext } from '../../context/event-context.ts';
import { definePreset } from '../define-preset.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { windsurfAgent } from './windsurf-agent.ts';
import { windsurfDialect } from './windsurf-dialect.ts';
import { readWindsurfExit } from './windsurf-exit.ts';
import { WINDSURF_GUARDS, writeWindsurfAnswer } from './windsurf-wire-answer.ts';

// Cascade's hook events (its hooks reference): a pre- and a post-hook for each action.
const ACTIONS: Readonly<Record<string, string>> = {
  read_code: 'Cascade reads a code file (or a directory)',
  write_code: 'Cascade writes or changes a code file',
  run_command: 'Cascade runs a terminal command',
  mcp_tool_use: "Cascade calls an MCP server's tool",
};

const events: readonly EventSpec[] = Object.entries(ACTIONS).flatMap(([action, does]) =>
  (['pre', 'post'] as const).map((phase) => {
    const name = `${phase}_${action}`;
    const guard = WINDSURF_GUARDS.includes(name);
    return {
      name,
      blocking: true,
      honours: guard ? (['block'] as const) : [],
      description: `${phase === 'pre' ? 'before' : 'after'} ${does}${guard ? '; exit 2 blocks it' : ''}`,
      extras: ['system_message'],
      matcherFields: [],
      // Cascade: a hook that fails (any exit but 0 and 2) lets the action go on.
      onError: 'proceed',
      parallel: true,
    } satisfies EventSpec;
  }),
);

// The fields Cascade's reference documents on stdin: the common ones and the action's `tool_info`.
const context: ContextSchema = {
  trajectory_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  ...fieldsOf('string', 'agent_action_name', 'execution_id', 'timestamp'),
  tool_info: { type: 'object' },
};

/**
 * Windsurf's Cascade hooks: `.windsurf/hooks.json` in the workspace and `~/.codeium/windsurf/hooks.json`,
 * `{"hooks": {"<event>": [{"command": "…", "show_output": true}]}}`; the payload on stdin; exit 2 with
 * stderr blocks a pre-hook, any other failure lets the action go on. Written from Cascade's published
 * reference: Windsurf is an editor with no command-line client in the npm registry to measure against.
 */
export const windsurfPreset: Preset = definePreset({
  name: 'windsurf',
  events,
  context,
  matcherFields: [],
  eventField: 'agent_action_name',
  sessionField: 'trajectory_id',
  dialect: windsurfDialect,
  command: {
    readExit: readWindsurfExit,
    shell: 'bash',
    environment: { variables: () => ({}) },
  },
  writeAnswer: writeWindsurfAnswer,
  contextJson: windsurfInput,
  configFiles: [
    { under: 'home', path: '.codeium/windsurf/hooks.json' },
    { under: 'project', path: '.windsurf/hooks.json' },
  ],
  recognises: (source) =>
    source.format === 'json' && /(^|[\\/])(\.windsurf|\.codeium[\\/]windsurf)[\\/]hooks\.json$/.test(source.file),
  hookDefaults: { sandbox: false, timeoutMs: { command: 60_000 } },
  invalidHooks: 'fail-when-selected',
  agent: windsurfAgent,
  layering: 'merge-all',
});

function windsurfInput(context: EventContext): string {
  const { event, ...input } = context;
  return JSON.stringify(input['agent_action_name'] === undefined ? { agent_action_name: event, ...input } : input);
}
