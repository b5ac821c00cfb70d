import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentProject } from './agent-project.ts';

/**
 * One fact of an agent's hook protocol, checked with a plain hook script in the agent's own settings
 * (no Hookline): what the hook answers, and whether the agent then ran the tool and what its model saw.
 */
export interface ProtocolRow {
  readonly fact: string;
  /** The agent's event the hook is installed for. */
  readonly event: string;
  /** The hook's body (bash), after its stdin was saved to `payload.json`. */
  readonly script: string;
  /** The entry's `timeout`, in the agent's own unit. */
  readonly timeout?: number;
  /** The tool ran: `marker` exists (or, for a rewrite, `rewritten`). */
  readonly ran: boolean | 'rewritten';
  /** Text the model's next request carries. */
  readonly modelSees?: string;
}

/** Writes the row's hook script into the project; returns the command line of its entry. */
export function rowHook(project: AgentProject, row: ProtocolRow): string {
  const path = join(project.dir, 'hook.sh');
  writeFileSync(path, `#!/bin/bash\ncat > ${JSON.stringify(join(project.dir, 'payload.json'))}\n${row.script}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** What happened in the project: whether the tool ran (plainly or rewritten), and the payload the hook got. */
export function rowOutcome(project: AgentProject): { ran: boolean | 'rewritten'; payload: Record<string, unknown> } {
  const ran = existsSync(join(project.dir, 'rewritten')) ? 'rewritten' : existsSync(join(project.dir, 'marker'));
  const file = join(project.dir, 'payload.json');
  return { ran, payload: existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {} };
}
