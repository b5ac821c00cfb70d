import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import {
  createHookEngine,
  loadConfig,
  type EmitOutcome,
  type HookEngine,
  type HookEngineOptions,
  type HookReport,
} from '@hookline/core';
import { commandRunner } from '@hookline/runner-command';
import { dockerSandbox, type DockerSandboxProvider, type DockerSandboxSettings } from '../src/index.ts';
import { LABELS } from '../src/labels.ts';
import { TEST_IMAGE } from './docker-probe.ts';

/** A Docker client of the tests' own, to look at containers from the outside. */
export const docker = new Docker();

/** A run id no other test uses. */
export function freshRunId(prefix = 'test'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** The docker sandbox with the test image, plus whatever a test changes. */
export function testSandbox(settings: DockerSandboxSettings = {}): DockerSandboxProvider {
  return dockerSandbox({ image: TEST_IMAGE, ...settings });
}

/** A hook as a test writes it: its TOML keys. */
export type HookTable = Readonly<Record<string, string | number | boolean>>;

/** An engine running `hooks` (event `stage_start` unless they say) in the docker sandbox. */
export function dockerEngine(
  hooks: readonly HookTable[],
  sandbox: DockerSandboxProvider = testSandbox(),
  options: Pick<HookEngineOptions, 'onInternalEmit'> = {},
): HookEngine {
  const runners = [commandRunner()];
  const text = [
    '[sandbox]\nprovider = "docker"',
    ...hooks.map((hook) =>
      [
        '[[hooks]]',
        ...Object.entries({ event: 'stage_start', ...hook }).map(([key, value]) => `${key} = ${JSON.stringify(value)}`),
      ].join('\n'),
    ),
  ].join('\n\n');
  return createHookEngine({
    config: loadConfig([{ text, source: 'test.toml' }], { runners }),
    runners,
    sandbox,
    ...options,
  });
}

/** Emits `stage_start` for `runId` and waits for every hook. */
export async function emitSettled(
  engine: HookEngine,
  runId: string,
  context: Record<string, unknown> = {},
): Promise<EmitOutcome> {
  const outcome = await engine.emit('stage_start', {
    run_id: runId,
    workflow_name: 'tests',
    node_id: 'build',
    ...context,
  });
  return outcome.settled;
}

/** Runs one hook in a fresh engine and run, closes the engine, and returns the hook's report. */
export async function runOne(hook: HookTable, settings: DockerSandboxSettings = {}): Promise<HookReport> {
  const engine = dockerEngine([{ name: 'hook', ...hook }], testSandbox(settings));
  try {
    const outcome = await emitSettled(engine, freshRunId());
    return outcome.hooks[0]!;
  } finally {
    await engine.close();
  }
}

/** The containers (running or not) labelled with this run id. */
export async function containersOfRun(runId: string): Promise<Docker.ContainerInfo[]> {
  return docker.listContainers({ all: true, filters: { label: [`${LABELS.runId}=${runId}`] } });
}

/** The command lines of the processes in a container, as `docker top` shows them. */
export async function topCommands(containerId: string): Promise<string[]> {
  const top = await docker.getContainer(containerId).top({ ps_args: '-eo pid,args' });
  return ((top.Processes ?? []) as string[][]).map((row) => row.at(-1) ?? '');
}

/** The stdout of a hook as text. */
export function text(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
