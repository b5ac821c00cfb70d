import { canonicalDialect } from '../../config/canonical-dialect.ts';
import { fieldsOf, type ContextSchema } from '../../context/context-field.ts';
import { arcStarter } from './arc-starter.ts';
import type { EventSpec, Preset } from '../preset.ts';
import { definePreset } from '../define-preset.ts';
import { readHooklineExit } from '../hookline-exit.ts';

// Blocking defaults and honoured decisions of the workflow-engine catalog.
const events: readonly EventSpec[] = [
  { name: 'run_start', blocking: true, honours: ['block'], description: 'before the first node executes' },
  {
    name: 'run_complete',
    blocking: false,
    honours: ['block'],
    description: 'after the run finishes successfully',
    endsSession: true,
  },
  { name: 'run_failed', blocking: false, honours: ['block'], description: 'after the run fails', endsSession: true },
  { name: 'stage_start', blocking: true, honours: ['skip', 'block'], description: 'before a node handler begins' },
  {
    name: 'stage_complete',
    blocking: false,
    honours: ['block'],
    description: 'after a node handler finishes successfully',
  },
  { name: 'stage_failed', blocking: false, honours: ['block'], description: 'after a node handler fails' },
  {
    name: 'stage_retrying',
    blocking: false,
    honours: ['skip', 'block'],
    description: 'before a failed node is retried',
  },
  {
    name: 'edge_selected',
    blocking: true,
    honours: ['override', 'block'],
    description: 'after an edge is chosen for traversal',
  },
  { name: 'parallel_start', blocking: false, honours: ['block'], description: 'before parallel branches fan out' },
  { name: 'parallel_complete', blocking: false, honours: ['block'], description: 'after parallel branches merge' },
  {
    name: 'sandbox_ready',
    blocking: false,
    honours: ['block'],
    description: 'after the sandbox environment is created',
  },
  { name: 'sandbox_cleanup', blocking: false, honours: [], description: 'before the sandbox is torn down' },
  { name: 'checkpoint_saved', blocking: false, honours: [], description: 'after a checkpoint is written' },
];

// A run's id and workflow, then the optional fields; `attempt` and `max_attempts` count.
// A command line gives each invocation its own run (and sandbox session) of workflow "cli".
const context: ContextSchema = {
  run_id: { type: 'string', required: true, cliDefault: { kind: 'session-key' } },
  workflow_name: { type: 'string', required: true, cliDefault: { kind: 'text', text: 'cli' } },
  ...fieldsOf(
    'string',
    'cwd',
    'node_id',
    'node_label',
    'handler_type',
    'status',
    'edge_from',
    'edge_to',
    'edge_label',
    'failure_reason',
  ),
  ...fieldsOf('integer', 'attempt', 'max_attempts'),
  // The engine's own sandbox_ready/sandbox_cleanup say which sandbox: `{provider, …}`.
  sandbox: { type: 'object' },
};

/** The workflow-engine preset: Hookline's default. */
export const arcPreset: Preset = definePreset({
  name: 'arc',
  events,
  context,
  matcherFields: ['node_id', 'handler_type', 'edge_from', 'edge_to', 'tool_name'],
  sessionField: 'run_id',
  dialect: canonicalDialect,
  command: {
    readExit: readHooklineExit,
    shell: 'sh',
    environment: {
      variables(context) {
        const variables: Record<string, string> = {
          ARC_EVENT: context.event,
          ARC_RUN_ID: String(context['run_id']),
          ARC_WORKFLOW: String(context['workflow_name']),
        };
        const nodeId = context['node_id'];
        if (nodeId !== undefined && nodeId !== null)
          variables['ARC_NODE_ID'] = typeof nodeId === 'string' ? nodeId : JSON.stringify(nodeId);
        return variables;
      },
      contextFileVariable: 'ARC_HOOK_CONTEXT',
    },
  },
  sandboxEvents: { ready: 'sandbox_ready', cleanup: 'sandbox_cleanup', carries: ['workflow_name'] },
  starter: { text: () => arcStarter(events), tryEmit: 'run_start' },
});
