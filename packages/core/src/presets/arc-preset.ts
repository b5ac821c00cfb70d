import { canonicalDialect } from '../config/canonical-dialect.ts';
import type { EventSpec, Preset } from './preset.ts';

// SPEC §3: blocking defaults and honoured decisions of the workflow-engine catalog.
const events: readonly EventSpec[] = [
  { name: 'run_start', blocking: true, honours: ['block'], description: 'before the first node executes' },
  { name: 'run_complete', blocking: false, honours: ['block'], description: 'after the run finishes successfully' },
  { name: 'run_failed', blocking: false, honours: ['block'], description: 'after the run fails' },
  { name: 'stage_start', blocking: true, honours: ['skip', 'block'], description: 'before a node handler begins' },
  { name: 'stage_complete', blocking: false, honours: ['block'], description: 'after a node handler finishes successfully' },
  { name: 'stage_failed', blocking: false, honours: ['block'], description: 'after a node handler fails' },
  { name: 'stage_retrying', blocking: false, honours: ['skip', 'block'], description: 'before a failed node is retried' },
  { name: 'edge_selected', blocking: true, honours: ['override', 'block'], description: 'after an edge is chosen for traversal' },
  { name: 'parallel_start', blocking: false, honours: ['block'], description: 'before parallel branches fan out' },
  { name: 'parallel_complete', blocking: false, honours: ['block'], description: 'after parallel branches merge' },
  { name: 'sandbox_ready', blocking: false, honours: ['block'], description: 'after the sandbox environment is created' },
  { name: 'sandbox_cleanup', blocking: false, honours: [], description: 'before the sandbox is torn down' },
  { name: 'checkpoint_saved', blocking: false, honours: [], description: 'after a checkpoint is written' },
];

/** The workflow-engine preset (SPEC §3, §4, §7): Hookline's default. */
export const arcPreset: Preset = {
  name: 'arc',
  events,
  requiredContextFields: ['run_id', 'workflow_name'],
  contextFields: [
    'cwd', 'node_id', 'node_label', 'handler_type', 'status', 'edge_from', 'edge_to', 'edge_label',
    'failure_reason', 'attempt', 'max_attempts',
  ],
  matcherFields: ['node_id', 'handler_type', 'edge_from', 'edge_to', 'tool_name'],
  sessionField: 'run_id',
  environment: {
    variables(context) {
      const variables: Record<string, string> = {
        ARC_EVENT: context.event,
        ARC_RUN_ID: String(context['run_id']),
        ARC_WORKFLOW: String(context['workflow_name']),
      };
      const nodeId = context['node_id'];
      if (nodeId !== undefined && nodeId !== null) variables['ARC_NODE_ID'] = String(nodeId);
      return variables;
    },
    contextFileVariable: 'ARC_HOOK_CONTEXT',
  },
  shell: 'sh',
  dialect: canonicalDialect,
  commandProtocol: 'arc',
  sandboxEvents: { ready: 'sandbox_ready', cleanup: 'sandbox_cleanup' },
};
