import type { EmitOutcome, HookEngine } from '@hookline/core';
import type { Workflow } from './workflow.ts';

/** One thing the flow did, as the demo prints it. */
export type FlowStep =
  | { readonly kind: 'stage'; readonly node: string; readonly outcome: EmitOutcome; readonly summary?: string }
  | { readonly kind: 'edge'; readonly from: string; readonly to: string; readonly outcome: EmitOutcome }
  | {
      readonly kind: 'end';
      readonly event: 'run_complete' | 'run_failed';
      readonly reason?: string;
      readonly outcome: EmitOutcome;
    };

/** Where the flow went: `path` reads like "build (skipped)", "deploy (blocked)". */
export interface FlowResult {
  readonly status: 'complete' | 'failed';
  readonly path: readonly string[];
}

/** What the host passes on every emit. */
export interface RunSettings {
  readonly runId: string;
  /** Hooks run here (a command hook's cwd is the context's `cwd`). */
  readonly cwd: string;
  /** Called after each step, with the step's outcome. */
  readonly onStep: (step: FlowStep) => void | Promise<void>;
}

// A host must never loop forever on overrides that point backwards.
const MAX_STAGES = 20;

/**
 * A tiny workflow host: walks the graph, emits arc events around each stage and edge, and obeys the
 * decisions — `skip` a stage, `block` the run, `override` an edge — as each event's definition allows.
 */
export async function runWorkflow(engine: HookEngine, workflow: Workflow, settings: RunSettings): Promise<FlowResult> {
  const base = { run_id: settings.runId, workflow_name: workflow.name, cwd: settings.cwd };
  const path: string[] = [];
  const attempts = new Map<string, number>();
  const finish = async (event: 'run_complete' | 'run_failed', reason?: string): Promise<FlowResult> => {
    const pending = await engine.emit(event, { ...base, ...(reason === undefined ? {} : { failure_reason: reason }) });
    // Non-blocking hooks (the notification) never change the decision; the host waits to show them.
    await settings.onStep({
      kind: 'end',
      event,
      ...(reason === undefined ? {} : { reason }),
      outcome: await pending.settled,
    });
    await engine.endRun(settings.runId);
    return { status: event === 'run_complete' ? 'complete' : 'failed', path };
  };

  const started = await engine.emit('run_start', base);
  if (started.decision === 'block')
    return finish('run_failed', `run_start blocked by ${started.decided_by ?? 'a hook'}`);

  let node: string | undefined = workflow.start;
  for (let stage = 0; node !== undefined && stage < MAX_STAGES; stage++) {
    const attempt = (attempts.get(node) ?? 0) + 1;
    attempts.set(node, attempt);
    const context = { ...base, node_id: node, handler_type: 'shell', attempt, inputs_changed: node !== 'build' };
    const start = await engine.emit('stage_start', context);
    if (start.decision === 'block') {
      await settings.onStep({ kind: 'stage', node, outcome: start });
      path.push(`${node} (blocked)`);
      return finish('run_failed', `${node} blocked by ${start.decided_by ?? 'a hook'}`);
    }
    let status: 'pass' | 'fail' = 'pass';
    if (start.decision === 'skip') {
      await settings.onStep({ kind: 'stage', node, outcome: start });
      path.push(`${node} (skipped)`);
    } else {
      const result = workflow.run(node, attempt);
      status = result.status;
      await settings.onStep({
        kind: 'stage',
        node,
        outcome: start,
        ...(result.summary === undefined ? {} : { summary: result.summary }),
      });
      path.push(node);
      await engine.emit(status === 'pass' ? 'stage_complete' : 'stage_failed', { ...context, status });
    }

    const next: string | undefined = workflow.next[node];
    if (next === undefined) {
      node = undefined;
      break;
    }
    const edge = await engine.emit('edge_selected', { ...base, edge_from: node, edge_to: next, status });
    await settings.onStep({ kind: 'edge', from: node, to: next, outcome: edge });
    if (edge.decision === 'block')
      return finish('run_failed', `edge ${node} → ${next} blocked by ${edge.decided_by ?? 'a hook'}`);
    node = edge.decision === 'override' && edge.edge_to !== undefined ? edge.edge_to : next;
  }
  return node === undefined
    ? finish('run_complete')
    : finish('run_failed', `stopped after ${MAX_STAGES} stages: the edges loop`);
}
