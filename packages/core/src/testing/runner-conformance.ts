import { stringify } from 'smol-toml';
import { loadConfig } from '../config/load-config.ts';
import type { HookConfig } from '../config/hook-definition.ts';
import { MAX_TIMEOUT_MS } from '../config/common-hook-keys.ts';
import { createHookEngine } from '../engine/create-hook-engine.ts';
import { ConfigError } from '../errors/config-error.ts';
import type { Runner } from '../plugins/runner.ts';
import { RUNNER_INTERFACE_VERSION } from '../plugins/runner.ts';
import type { SandboxProvider } from '../plugins/sandbox-provider.ts';
import { arcPreset } from '../presets/arc/arc-preset.ts';

/** One check of the conformance suite; `run` throws on failure. Register it with any test framework. */
export interface ConformanceCase {
  readonly name: string;
  run(): Promise<void>;
}

/** The type-specific keys of hooks that behave a known way when run by the runner under test. */
export interface ConformanceScenarios {
  /** Answers `proceed`. */
  readonly proceed: Readonly<Record<string, unknown>>;
  /** Answers `block` with a reason. */
  readonly block: Readonly<Record<string, unknown>>;
  /** Cannot complete (spawn error, HTTP 500, …): must be reported `failed` with an error text. */
  readonly fail: Readonly<Record<string, unknown>>;
  /** Would take far longer than a second unless aborted. */
  readonly slow: Readonly<Record<string, unknown>>;
}

/** What the suite tests. */
export interface RunnerConformanceOptions {
  readonly runner: Runner;
  /** The hook type under test (a runner may provide several; run the suite once per type). */
  readonly type: string;
  readonly scenarios: ConformanceScenarios;
  /** Run sandboxed hooks through this provider; without it the hooks run with `sandbox = false`. */
  readonly sandbox?: SandboxProvider;
  /** Extra context fields (e.g. `cwd`). */
  readonly context?: Readonly<Record<string, unknown>>;
  /**
   * Context fields for one scenario only: some hooks fail for reasons outside their keys, like a
   * command run in a `cwd` that does not exist.
   */
  readonly scenarioContext?: Partial<Record<keyof ConformanceScenarios, Readonly<Record<string, unknown>>>>;
  /** How long a runner may take to settle after its signal aborts; default 5 000 ms. */
  readonly abortSettleMs?: number;
}

/**
 * The contract every runner — first- or third-party — proves by passing: a sound declaration, keys
 * that load through the real config loader, answers, failures and timeouts reported as data through
 * the real engine, prompt settling on abort, concurrent use, and clean shutdown.
 *
 * ```ts
 * for (const check of runnerConformanceCases({ runner: commandRunner(), type: 'command', scenarios })) {
 *   test(check.name, check.run);
 * }
 * ```
 */
export function runnerConformanceCases(options: RunnerConformanceOptions): ConformanceCase[] {
  const { runner, type, scenarios } = options;
  const settleMs = options.abortSettleMs ?? 5_000;
  const context = {
    run_id: 'conformance-run',
    workflow_name: 'conformance',
    node_id: 'build',
    handler_type: 'command',
    ...options.context,
  };
  const load = (hooks: Array<Record<string, unknown>>): HookConfig =>
    loadConfig(
      [
        {
          text: stringify({
            ...(options.sandbox === undefined ? {} : { sandbox: { provider: options.sandbox.name } }),
            hooks,
          }),
          source: 'conformance.toml',
        },
      ],
      { runners: [runner] },
    );
  const hook = (
    name: string,
    scenario: keyof ConformanceScenarios,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> => ({
    name,
    event: 'stage_start',
    type,
    sandbox: options.sandbox !== undefined,
    ...scenarios[scenario],
    ...extra,
  });
  const engineFor = (config: HookConfig) =>
    createHookEngine({
      config,
      runners: [runner],
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    });
  const emitOne = async (config: HookConfig, scenario?: keyof ConformanceScenarios) => {
    const engine = engineFor(config);
    try {
      const outcome = await engine.emit('stage_start', {
        ...context,
        ...(scenario === undefined ? {} : options.scenarioContext?.[scenario]),
      });
      return await outcome.settled;
    } finally {
      await engine.close();
    }
  };

  return [
    {
      name: `${type}: declares a runner of interface ${RUNNER_INTERFACE_VERSION} with a sound type declaration`,
      async run() {
        assert(
          runner.runnerInterfaceVersion === RUNNER_INTERFACE_VERSION,
          `runnerInterfaceVersion is ${String(runner.runnerInterfaceVersion)}`,
        );
        assert(typeof runner.name === 'string' && runner.name.length > 0, 'runner.name must name its package');
        const spec = runner.types[type];
        assert(spec !== undefined, `runner.types has no "${type}"`);
        assert(
          spec.options?.kind === 'schema' && spec.options.type === 'object' && typeof spec.options.entries === 'object',
          'options must be a valibot object schema (v.object({ … }))',
        );
        assert(
          Number.isInteger(spec.defaultTimeoutMs) &&
            spec.defaultTimeoutMs >= 1 &&
            spec.defaultTimeoutMs <= MAX_TIMEOUT_MS,
          `defaultTimeoutMs ${spec.defaultTimeoutMs} is out of range`,
        );
        assert(
          spec.defaultOnError === 'proceed' || spec.defaultOnError === 'block',
          `defaultOnError is ${String(spec.defaultOnError)}`,
        );
        assert(typeof spec.usesSandbox === 'boolean', 'usesSandbox must be a boolean');
        assert(typeof spec.doRun === 'function', 'doRun must be a function');
      },
    },
    {
      name: `${type}: its keys load through loadConfig, and an unknown key is rejected with its line`,
      async run() {
        const config = load([hook('p', 'proceed'), hook('b', 'block'), hook('f', 'fail'), hook('s', 'slow')]);
        assert(
          config.hooks.length === 4 && config.hooks.every((loaded) => loaded.type === type),
          'all four scenarios load as hooks of the type',
        );
        let caught: unknown;
        try {
          load([hook('x', 'proceed', { surely_not_a_key_of_this_runner: true })]);
        } catch (error) {
          caught = error;
        }
        assert(ConfigError.isInstance(caught), 'an unknown key must make loadConfig throw a ConfigError');
        const issue = caught.issues.find((found) => found.message.includes('surely_not_a_key_of_this_runner'));
        assert(issue?.line !== undefined, 'the issue names the unknown key and its line');
      },
    },
    {
      name: `${type}: a proceeding hook is reported ok/proceed`,
      async run() {
        const outcome = await emitOne(load([hook('proceeds', 'proceed')]));
        const report = outcome.hooks[0];
        assert(report?.status === 'ok', `status is ${String(report?.status)}: ${String(report?.error)}`);
        assert(report.decision?.decision === 'proceed', `decision is ${String(report.decision?.decision)}`);
        assert(outcome.decision === 'proceed', 'the merged decision proceeds');
      },
    },
    {
      name: `${type}: a blocking answer blocks the event with the hook's reason`,
      async run() {
        const outcome = await emitOne(load([hook('blocks', 'block'), hook('after', 'proceed')]));
        assert(
          outcome.hooks[0]?.status === 'ok',
          `status is ${String(outcome.hooks[0]?.status)}: ${String(outcome.hooks[0]?.error)}`,
        );
        assert(
          outcome.decision === 'block' && outcome.decided_by === 'blocks',
          `outcome is ${outcome.decision} by ${String(outcome.decided_by)}`,
        );
        assert(typeof outcome.reason === 'string' && outcome.reason.length > 0, 'a block carries a reason');
        assert(outcome.hooks[1]?.status === 'skipped', 'hooks after a block are skipped');
      },
    },
    {
      name: `${type}: a hook that cannot complete is failed, with an error, and decided by on_error`,
      async run() {
        for (const policy of ['proceed', 'block'] as const) {
          const outcome = await emitOne(load([hook('fails', 'fail', { on_error: policy })]), 'fail');
          const report = outcome.hooks[0];
          assert(report?.status === 'failed', `status is ${String(report?.status)} (on_error = ${policy})`);
          assert(typeof report.error === 'string' && report.error.length > 0, 'a failure has an error text');
          assert(
            report.decision?.decision === policy,
            `on_error = ${policy} decides ${String(report.decision?.decision)}`,
          );
          assert(
            outcome.warnings.some((warning) => warning.includes('fails')),
            'the failure is visible in the outcome warnings',
          );
        }
      },
    },
    {
      name: `${type}: a slow hook is timed_out at its deadline`,
      async run() {
        const started = performance.now();
        const outcome = await emitOne(load([hook('slow', 'slow', { timeout_ms: 300 })]));
        const elapsed = performance.now() - started;
        const report = outcome.hooks[0];
        assert(report?.status === 'timed_out', `status is ${String(report?.status)}`);
        assert(report.error === 'hook timed out after 300 ms', `error is ${String(report.error)}`);
        assert(elapsed < 300 + settleMs, `emit took ${Math.round(elapsed)} ms`);
      },
    },
    {
      name: `${type}: doRun settles promptly once its signal aborts`,
      async run() {
        const config = load([hook('slow', 'slow', { timeout_ms: 60_000 })]);
        const spec = runner.types[type];
        assert(spec !== undefined, `runner.types has no "${type}"`);
        const session =
          options.sandbox === undefined
            ? undefined
            : await options.sandbox.doOpen('conformance-abort', new AbortController().signal);
        try {
          const controller = new AbortController();
          const contextJson = JSON.stringify({ event: 'stage_start', ...context });
          const started = performance.now();
          const work = Promise.resolve(
            spec.doRun(config.hooks[0]!, {
              context: { event: 'stage_start', ...context },
              contextJson,
              signal: controller.signal,
              timeoutMs: 60_000,
              preset: arcPreset,
              ...(session === undefined ? {} : { sandbox: session }),
            }),
          );
          setTimeout(() => controller.abort(new Error('conformance abort')), 100);
          const settled = await Promise.race([
            work.then(
              () => true,
              () => true,
            ),
            delay(settleMs + 100).then(() => false),
          ]);
          assert(settled, `doRun did not settle within ${settleMs} ms of the abort`);
          assert(performance.now() - started < 100 + settleMs + 100, 'doRun settled in time');
        } finally {
          await session?.dispose();
        }
      },
    },
    {
      name: `${type}: twenty concurrent non-blocking hooks all run`,
      async run() {
        const hooks = Array.from({ length: 20 }, (_, index) =>
          hook(`parallel-${index}`, 'proceed', { blocking: false }),
        );
        const outcome = await emitOne(load(hooks));
        const ok = outcome.hooks.filter((report) => report.status === 'ok').length;
        assert(
          ok === 20,
          `${ok} of 20 ran ok: ${JSON.stringify(outcome.hooks.find((report) => report.status !== 'ok'))}`,
        );
      },
    },
    {
      name: `${type}: closing the engine ends a running hook and resolves`,
      async run() {
        const engine = engineFor(load([hook('slow', 'slow', { timeout_ms: 60_000 })]));
        const pending = engine.emit('stage_start', context);
        await delay(200);
        const started = performance.now();
        await engine.close();
        const outcome = await pending;
        assert(outcome.hooks[0]?.status === 'failed', `status is ${String(outcome.hooks[0]?.status)}`);
        assert(performance.now() - started < settleMs + 500, 'close() resolved in time');
      },
    },
  ];
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`conformance: ${message}`);
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
