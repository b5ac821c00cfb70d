/** What a stage's handler reports. */
export interface StageResult {
  readonly status: 'pass' | 'fail';
  /** Shown after the stage line, e.g. "2 tests failed". */
  readonly summary?: string;
}

/** A workflow: its nodes in order of the default edges, and what each handler does. */
export interface Workflow {
  readonly name: string;
  readonly start: string;
  /** The edge each node takes when nothing overrides it; absent for the last node. */
  readonly next: Readonly<Record<string, string>>;
  /** Simulated handlers; `attempt` counts the node's runs, from 1. */
  run(node: string, attempt: number): StageResult;
}

/**
 * The demo's workflow "ship": plan → build → test → deploy, plus a `fix` node that only a hook's
 * override leads to. Tests fail on their first run and pass once fixed, so the flow visibly changes.
 */
export const shipWorkflow: Workflow = {
  name: 'ship',
  start: 'plan',
  next: { plan: 'build', build: 'test', test: 'deploy', fix: 'test' },
  run(node, attempt) {
    if (node === 'test')
      return attempt === 1
        ? { status: 'fail', summary: '2 tests failed' }
        : { status: 'pass', summary: 'all tests passed' };
    return { status: 'pass' };
  },
};
