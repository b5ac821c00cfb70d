// In-memory runners that declare the first-party `command` and `http` types with their defaults, so
// core's tests can load task and agent configs (whose dialects produce those types) without the
// runner packages. The real runners are tested end to end in their own packages.
import * as v from 'valibot';
import { defineRunner, type Runner } from '../src/plugins/runner.ts';
import type { EventContext } from '../src/context/event-context.ts';

/** One call a stand-in received, in the order they started. */
export interface StandInCall {
  readonly hook: string;
  readonly context: EventContext;
  readonly started: number;
  ended?: number;
}

/** A stand-in runner and the calls it received. */
export interface StandIn {
  readonly runner: Runner;
  readonly calls: StandInCall[];
}

/**
 * `command` hooks whose command says what to do: `ok` (proceed), `exit N` (block "hook exited with
 * code N"), `sleep N` (proceed after N ms), `fail` (status failed), `hang` (never answers),
 * `decide {…}` (that decision JSON, extras included).
 */
export function standInCommandRunner(): StandIn {
  const calls: StandInCall[] = [];
  let clock = 0;
  const runner = defineRunner({
    name: 'stand-in-command',
    types: {
      command: {
        options: v.object({
          command: v.pipe(
            v.string('must be a string holding a shell command'),
            v.regex(/\S/, 'must not be empty or only whitespace'),
          ),
          max_output_bytes: v.optional(v.number()),
        }),
        defaultTimeoutMs: 60_000,
        defaultOnError: 'block',
        usesSandbox: true,
        identity: (options) => String(options.command ?? '').slice(0, 20),
        async doRun(hook, call) {
          const record: StandInCall = { hook: hook.name, context: call.context, started: clock++ };
          calls.push(record);
          const command = hook.options.command;
          try {
            if (command === 'hang') return await new Promise<never>(() => {});
            if (command === 'fail') return { status: 'failed', error: 'could not start' };
            if (command.startsWith('decide ')) return { status: 'ok', decision: JSON.parse(command.slice(7)) };
            const sleep = /^sleep (\d+)$/.exec(command);
            if (sleep !== null) await new Promise((resolve) => setTimeout(resolve, Number(sleep[1])));
            const exit = /^exit (\d+)$/.exec(command);
            if (exit !== null && exit[1] !== '0')
              return { status: 'ok', decision: { decision: 'block', reason: `hook exited with code ${exit[1]}` } };
            return { status: 'ok', decision: { decision: 'proceed' } };
          } finally {
            record.ended = clock++;
          }
        },
      },
    },
  });
  return { runner, calls };
}

/** `http` hooks that fail when their url contains `fail`, else proceed. */
export function standInHttpRunner(): StandIn {
  const calls: StandInCall[] = [];
  const runner = defineRunner({
    name: 'stand-in-http',
    types: {
      http: {
        options: v.object({
          url: v.pipe(v.string(), v.url('must be a URL')),
          headers: v.optional(v.record(v.string(), v.string())),
        }),
        defaultTimeoutMs: 60_000,
        defaultOnError: 'proceed',
        usesSandbox: false,
        identity: (options) => String(options.url),
        async doRun(hook, call) {
          calls.push({ hook: hook.name, context: call.context, started: calls.length });
          return hook.options.url.includes('fail')
            ? { status: 'failed', error: 'HTTP 500' }
            : { status: 'ok', decision: { decision: 'proceed' } };
        },
      },
    },
  });
  return { runner, calls };
}
