import { defineRunner, firstCharacters, InvalidOptionError, type Runner, type RunnerType } from '@hookline/core/plugin';
import { agentOptions, promptOptions } from './llm-keys.ts';
import { lazyClient } from './lazy-client.ts';
import type { LlmRunScope } from './llm-run.ts';
import type { MessagesClient } from './messages-client.ts';
import { modelsSettingsTable, modelTable, resolveModel } from './models.ts';
import { runAgentHook } from './run-agent-hook.ts';
import { runPromptHook } from './run-prompt-hook.ts';

/** Settings of {@link llmRunner}. */
export interface LlmRunnerSettings {
  /**
   * A configured Anthropic client (`new Anthropic({ … })` from `@anthropic-ai/sdk`). Without one, a
   * client is made on first use from the standard environment (`ANTHROPIC_API_KEY` or
   * `ANTHROPIC_AUTH_TOKEN`, `ANTHROPIC_BASE_URL`, …).
   */
  readonly client?: MessagesClient;
  /**
   * Model aliases on top of the built-in `haiku`, `sonnet` and `opus` (which it may override): the
   * config file's `[models]` table, see `modelsSchema`.
   */
  readonly models?: Readonly<Record<string, string>>;
  /** Retries per request after 429, 5xx or a failed connection, each only within the hook's deadline; default 2. */
  readonly maxRetries?: number;
  /** Largest tool result an agent is sent back, in bytes; default 65 536. */
  readonly toolOutputBytes?: number;
}

/** Tool results are re-sent with every later request, so they are kept small by default. */
export const DEFAULT_TOOL_OUTPUT_BYTES = 65_536;

/**
 * The runner of `type = "prompt"` and `type = "agent"` hooks, on Anthropic's Messages API.
 * Nothing is loaded or sent until a hook runs; `@anthropic-ai/sdk` is imported then.
 *
 * ```ts
 * const runners = [commandRunner(), llmRunner({ models: { judge: 'claude-opus-5-5' } })];
 * const engine = createHookEngine({ config: loadConfig(sources, { runners }), runners, sandbox: localSandbox() });
 * ```
 */
export function llmRunner(settings: LlmRunnerSettings = {}): Runner {
  const models = modelTable(settings.models);
  const maxRetries = settings.maxRetries ?? 2;
  const toolOutputBytes = settings.toolOutputBytes ?? DEFAULT_TOOL_OUTPUT_BYTES;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new InvalidOptionError(
      'llmRunner',
      'maxRetries',
      `maxRetries must be a non-negative integer, got ${String(maxRetries)}`,
    );
  if (!Number.isInteger(toolOutputBytes) || toolOutputBytes < 1_024)
    throw new InvalidOptionError(
      'llmRunner',
      'toolOutputBytes',
      `toolOutputBytes must be an integer of at least 1024, got ${String(toolOutputBytes)}`,
    );
  const scope: LlmRunScope = { client: lazyClient(settings.client), models, maxRetries, toolOutputBytes };

  // Shared by both types: an agent hook's keys are a prompt hook's and more.
  const common = {
    // An LLM failure lets the event proceed (fail-open); the report still shows it failed.
    defaultOnError: 'proceed',
    identity: (options) => firstCharacters(String(options.prompt ?? ''), 20),
    check(options) {
      const model = resolveModel(options.model, models);
      return model.ok ? [] : [{ key: 'model', message: model.message }];
    },
  } satisfies Partial<RunnerType<typeof promptOptions>>;

  return defineRunner({
    name: '@hookline/runner-llm',
    types: {
      // 30 s for one call; the model's answer needs no sandbox.
      prompt: {
        ...common,
        options: promptOptions,
        defaultTimeoutMs: 30_000,
        usesSandbox: false,
        doRun: (hook, call) => runPromptHook(hook.options, call, scope),
      },
      // 60 s for the whole tool loop; its shell runs in the hook's sandbox.
      agent: {
        ...common,
        options: agentOptions,
        defaultTimeoutMs: 60_000,
        usesSandbox: true,
        doRun: (hook, call) => runAgentHook(hook.options, call, scope),
      },
    },
  });
}

/** `[models]`: the host validates it while loading the config and passes the result, `{ models }`, here. */
llmRunner.settingsTable = modelsSettingsTable;
