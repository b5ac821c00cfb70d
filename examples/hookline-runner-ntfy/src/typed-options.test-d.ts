// Type tests (compiled by `pnpm typecheck`): this package is a third-party runner, built against @hookline/core
// as published. Its types get their hook options typed by their schemas, with no cast anywhere.
import { defineRunner, type HookOptions, type Runner } from '@hookline/core/plugin';
import * as v from 'valibot';
import { describe, expectTypeOf, test } from 'vitest';
import { ntfyOptions, type NtfyHookOptions } from './ntfy-keys.ts';
import { ntfyRunner } from './ntfy-runner.ts';

describe('a third-party runner', () => {
  test("the ntfy type's options are the schema's output", () => {
    expectTypeOf<NtfyHookOptions>().toEqualTypeOf<HookOptions<typeof ntfyOptions>>();
    expectTypeOf<NtfyHookOptions['topic']>().toEqualTypeOf<string>();
    expectTypeOf<NtfyHookOptions['priority']>().toEqualTypeOf<
      number | 'min' | 'low' | 'default' | 'high' | 'max' | 'urgent' | undefined
    >();
    expectTypeOf<NtfyHookOptions['decision']>().toEqualTypeOf<'proceed' | 'block' | undefined>();
    expectTypeOf(ntfyRunner()).toEqualTypeOf<Runner>();
  });

  test('doRun receives typed options, and a wrong access does not compile', () => {
    defineRunner({
      name: 'hookline-runner-ntfy-test',
      types: {
        ntfy: {
          options: ntfyOptions,
          identity: (options) => options.topic,
          defaultTimeoutMs: 5_000,
          defaultOnError: 'block',
          usesSandbox: true,
          async doRun(hook) {
            expectTypeOf(hook.options.topic).toEqualTypeOf<string>();
            expectTypeOf(hook.options.tags).toEqualTypeOf<string[] | undefined>();
            // @ts-expect-error: there is no `topics` key
            void hook.options.topics;
            // @ts-expect-error: `tags` is a list of strings, not a string
            hook.options.tags?.toUpperCase();
            return { status: 'ok', decision: { decision: 'proceed' } };
          },
        },
        bell: {
          options: v.object({ sound: v.picklist(['ding', 'dong']) }),
          defaultTimeoutMs: 1_000,
          defaultOnError: 'block',
          usesSandbox: false,
          async doRun(hook) {
            expectTypeOf(hook.options.sound).toEqualTypeOf<'ding' | 'dong'>();
            // @ts-expect-error: the ntfy type's keys are not this type's
            void hook.options.topic;
            return { status: 'ok', decision: { decision: 'proceed' } };
          },
        },
      },
    });
  });
});
