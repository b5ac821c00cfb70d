import type { HookDecision, RunCall, RunResult } from '@hookline/core/plugin';
import { messageOf } from '@hookline/core/plugin';
import { MISSING_CREDENTIALS } from './credentials.ts';
import type { PromptHookOptions } from './llm-keys.ts';
import type { LazyClient } from './lazy-client.ts';
import type { MessageRequest } from './messages-client.ts';
import { resolveModel, type ModelTable } from './models.ts';
import { requestMessage, type RequestOutcome } from './request-message.ts';
import { emptyUsage } from './token-usage.ts';

/** Runner-wide settings every LLM hook run uses. */
export interface LlmRunScope {
  readonly client: LazyClient;
  readonly models: ModelTable;
  readonly maxRetries: number;
  readonly toolOutputBytes: number;
}

/** One hook run's conversation with the model: requests, and results that carry the run's details. */
export interface LlmRun {
  /** The model id the hook's `model` resolved to. */
  readonly model: string;
  /** Sends one request (the model is filled in), retried within the deadline; usage and rounds are counted. */
  ask(body: Omit<MessageRequest, 'model'>): Promise<RequestOutcome>;
  answered(decision: HookDecision, extra?: Readonly<Record<string, unknown>>): RunResult;
  failed(error: string, extra?: Readonly<Record<string, unknown>>): RunResult;
}

/**
 * Prepares a run: resolves the model, gets the client (loading the SDK on first use) and starts the
 * clock. The deadline is the hook's `timeoutMs` from now; the engine aborts `call.signal` at about
 * the same moment, which ends whatever request is in flight.
 */
export async function startLlmRun(
  options: PromptHookOptions,
  call: RunCall,
  scope: LlmRunScope,
): Promise<LlmRun | RunResult> {
  const deadline = performance.now() + call.timeoutMs;
  const model = resolveModel(options.model, scope.models);
  if (!model.ok) return { status: 'failed', error: model.message };
  let client;
  try {
    client = await scope.client.get();
  } catch (error) {
    return {
      status: 'failed',
      error: `could not load @anthropic-ai/sdk: ${messageOf(error)}`,
      details: { model: model.id },
    };
  }
  const usage = emptyUsage();
  let rounds = 0;
  let retries = 0;
  const details = (extra: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> => ({
    model: model.id,
    rounds,
    usage: { ...usage },
    ...(retries > 0 ? { retries } : {}),
    ...extra,
  });
  return {
    model: model.id,
    async ask(body) {
      rounds++;
      const outcome = await requestMessage(
        { ...body, model: model.id },
        { client, signal: call.signal, deadline, maxRetries: scope.maxRetries, onRetry: () => void retries++ },
      );
      if (outcome.ok) {
        usage.input_tokens += outcome.reply.inputTokens;
        usage.output_tokens += outcome.reply.outputTokens;
      } else if (outcome.error === MISSING_CREDENTIALS) {
        // The host's own client: the environment is not the fix.
        if (!scope.client.ownsClient)
          return {
            ok: false,
            error: 'the client passed to llmRunner has no credentials: give it an apiKey or authToken',
          };
        // The client made from the environment has none; the next hook makes a new one, in case they were set since.
        scope.client.reset();
      }
      return outcome;
    },
    answered: (decision, extra) => ({ status: 'ok', decision, details: details(extra) }),
    failed: (error, extra) => ({ status: 'failed', error, details: details(extra) }),
  };
}

/** Tells a prepared run from an early failure. */
export function isRunResult(value: LlmRun | RunResult): value is RunResult {
  return 'status' in value;
}
