import { defineRunner, type Runner } from '@hookline/core/plugin';
import { checkServer } from './check-server.ts';
import { fillTemplate } from './fill-template.ts';
import { ntfyOptions, priorityNumber } from './ntfy-keys.ts';
import { sendNotification } from './send-notification.ts';

/** Settings of {@link ntfyRunner}. */
export interface NtfyRunnerSettings {
  /** Server for hooks without `server`; default `https://ntfy.sh`. */
  readonly server?: string;
  /** The fetch to use; default the global one (Node ≥ 18, Deno, Bun). */
  readonly fetch?: typeof fetch;
}

const DEFAULT_SERVER = 'https://ntfy.sh';

/**
 * The runner of `type = "ntfy"` hooks: each sends a push notification (ntfy-style JSON publish) and
 * then decides `proceed` — or `block` with `reason`, for "page someone and stop here" hooks. A
 * notification that cannot be delivered is `failed` with the server's answer, and by default the
 * event proceeds (notifications fail open).
 *
 * ```toml
 * plugins = ["hookline-runner-ntfy"]
 *
 * [[hooks]]
 * event = "run_failed"
 * type = "ntfy"
 * topic = "ci-alerts"
 * title = "{workflow_name} failed"
 * message = "run {run_id} failed at {node_id}: {failure_reason}"
 * priority = "high"
 * ```
 */
export function ntfyRunner(settings: NtfyRunnerSettings = {}): Runner {
  return defineRunner({
    name: 'hookline-runner-ntfy',
    types: {
      ntfy: {
        options: ntfyOptions,
        defaultTimeoutMs: 10_000,
        defaultOnError: 'proceed',
        usesSandbox: false,
        identity: (options) => String(options.topic),
        check: checkServer,
        // `hook.options` has the schema's output type: `topic` is a string, `priority` a number or a name.
        async doRun(hook, call) {
          const { options } = hook;
          const context = call.context;
          const priority = priorityNumber(options.priority);
          const delivery = await sendNotification(
            options.server ?? settings.server ?? DEFAULT_SERVER,
            {
              topic: options.topic,
              message: fillTemplate(options.message ?? defaultMessage(context), context),
              ...(options.title === undefined ? {} : { title: fillTemplate(options.title, context) }),
              ...(priority === undefined ? {} : { priority }),
              ...(options.tags === undefined ? {} : { tags: options.tags }),
            },
            call.signal,
            settings.fetch ?? fetch,
          );
          if (!delivery.ok) return { status: 'failed', error: delivery.error };
          const decision =
            options.decision === 'block'
              ? {
                  decision: 'block' as const,
                  reason: options.reason ?? `notified ntfy topic "${options.topic}" and blocked`,
                }
              : { decision: 'proceed' as const };
          return { status: 'ok', decision, details: { delivered_to: options.topic } };
        },
      },
    },
  });
}

function defaultMessage(context: Readonly<Record<string, unknown>>): string {
  const where = context['node_id'] === undefined ? '' : ' at {node_id}';
  return `{event} in {workflow_name} (run {run_id})${where}`;
}
