import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import type { EventContext } from '../../context/event-context.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { taskDialect } from './task-dialect.ts';
import { taskStarter } from './task-starter.ts';
import { definePreset } from '../define-preset.ts';
import { readHooklineExit } from '../hookline-exit.ts';

// The task runner's hook docs: every point fires after the task's write committed; its commands run in order, never
// change the task's state, and a point is cleared only after its commands ran (durable).
const point = (name: string, description: string): EventSpec => ({
  name,
  blocking: false,
  honours: [],
  description,
  sequential: true,
  durable: true,
});

const events: readonly EventSpec[] = [
  point('after_merge', 'a task entered done.merged'),
  point('after_fail', 'a task entered a failed.* phase (a plan cancel records one point per task it ends)'),
  point('after_rework', 'a task entered review.rework_pending'),
  point('after_awaiting_human', 'a task entered review.awaiting_human'),
  point('after_proposed', 'a new task entered todo.proposed'),
];

/** Context field → variable, in the order the task runner documents them. */
const VARIABLES: ReadonlyArray<readonly [field: string, variable: string]> = [
  ['task', 'ARC_TASK'],
  ['plan', 'ARC_PLAN'],
  ['attempt', 'ARC_ATTEMPT'],
  ['branch', 'ARC_BRANCH'],
  ['worktree', 'ARC_WORKTREE'],
  ['target_branch', 'ARC_TARGET_BRANCH'],
  ['merged_sha', 'ARC_MERGED_SHA'],
  ['state', 'ARC_STATE'],
];

// The task runner's fields are all text: `attempt` is `<task>-<n>` (e.g. `t-42-2`), not a count. `task`
// has no command-line default: it names a real task of the host, and its hooks log under
// `runs/<task>/hooks/`, where an invented one would scatter logs no one looks for.
const context: ContextSchema = {
  task: { type: 'string', required: true },
  ...fieldsOf('string', 'plan', 'attempt', 'branch', 'worktree', 'target_branch', 'merged_sha', 'state', 'cwd'),
};

/**
 * The task-runner preset: five points in a task's life, each a list of shell
 * commands that run in order on the host, after the host's call returned, journaled so that a killed
 * process runs them again. Commands get `ARC_TASK` … `ARC_STATE` and `ARC_HOOK` (the point); a
 * variable whose field the context lacks is not set. Each command's output is logged under
 * `runs/<task>/hooks/<point>-NN.log` by the command runner.
 */
export const taskPreset: Preset = definePreset({
  name: 'task',
  events,
  context,
  // A point's commands usually run for every task; `state` tells the failed.* phases apart.
  matcherFields: ['state'],
  sessionField: 'task',
  dialect: taskDialect,
  command: {
    readExit: readHooklineExit,
    shell: 'sh',
    environment: {
      variables(context: EventContext): Record<string, string> {
        const variables: Record<string, string> = {};
        for (const [field, name] of VARIABLES) {
          const value = context[field];
          if (value !== undefined && value !== null)
            variables[name] = typeof value === 'string' ? value : JSON.stringify(value);
        }
        variables['ARC_HOOK'] = context.event;
        return variables;
      },
    },
    log: true,
  },
  // The task runner runs commands "on top of arc's own environment": cleanup lines push with the host's
  // credentials and notification lines use tokens, which the local sandbox would remove.
  hookDefaults: { sandbox: false },
  starter: {
    text: ({ remote }) => taskStarter(remote),
    tryEmit: 'after_merge --set task=…',
    remote: { default: 'origin' },
  },
});
