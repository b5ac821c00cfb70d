// Type tests (compiled by `pnpm typecheck`): a runner written as a third party writes it — through the public
// entry point, with no cast and no annotation — gets its hook options typed by its schema.
import * as v from 'valibot';
import { describe, expectTypeOf, test } from 'vitest';
import {
  defineRunner,
  defineRunnerType,
  type HookDefinition,
  type HookOptions,
  type RunCall,
  type Runner,
  type RunnerType,
  type RunResult,
} from '../plugin.ts';

const proceed: RunResult = { status: 'ok', decision: { decision: 'proceed' } };

describe('defineRunner', () => {
  test("a type's doRun, identity and check receive the schema's output type", () => {
    const runner = defineRunner({
      name: 'third-party',
      types: {
        page: {
          options: v.object({
            topic: v.string(),
            priority: v.optional(v.number()),
            tags: v.optional(v.array(v.string())),
          }),
          defaultTimeoutMs: 1_000,
          defaultOnError: 'proceed',
          usesSandbox: false,
          identity(options) {
            expectTypeOf(options).toEqualTypeOf<
              Readonly<{ topic: string; priority?: number | undefined; tags?: string[] | undefined }>
            >();
            return options.topic;
          },
          check(options) {
            expectTypeOf(options.priority).toEqualTypeOf<number | undefined>();
            return [];
          },
          async doRun(hook, call) {
            expectTypeOf(hook.options.topic).toEqualTypeOf<string>();
            expectTypeOf(hook.options.tags).toEqualTypeOf<string[] | undefined>();
            expectTypeOf(hook.name).toEqualTypeOf<string>();
            expectTypeOf(call).toEqualTypeOf<RunCall>();
            // @ts-expect-error: `topc` is not a key of the schema
            void hook.options.topc;
            // @ts-expect-error: `priority` is a number, not a string
            hook.options.priority?.toUpperCase();
            return proceed;
          },
        },
      },
    });
    expectTypeOf(runner).toEqualTypeOf<Runner>();
  });

  test('each type of a runner with several gets its own options', () => {
    defineRunner({
      name: 'two-types',
      types: {
        prompt: {
          options: v.object({ prompt: v.string() }),
          defaultTimeoutMs: 1_000,
          defaultOnError: 'proceed',
          usesSandbox: false,
          async doRun(hook) {
            expectTypeOf(hook.options).toEqualTypeOf<Readonly<{ prompt: string }>>();
            // @ts-expect-error: `rounds` belongs to the other type
            void hook.options.rounds;
            return proceed;
          },
        },
        agent: {
          options: v.object({ prompt: v.string(), rounds: v.optional(v.number()) }),
          defaultTimeoutMs: 1_000,
          defaultOnError: 'proceed',
          usesSandbox: true,
          async doRun(hook) {
            expectTypeOf(hook.options.rounds).toEqualTypeOf<number | undefined>();
            return proceed;
          },
        },
      },
    });
  });

  test('options must be a valibot object schema, and a wrong answer does not compile', () => {
    defineRunner({
      name: 'wrong',
      types: {
        bad: {
          // @ts-expect-error: a record of schemas is not one object schema
          options: { topic: v.string() },
          defaultTimeoutMs: 1_000,
          defaultOnError: 'proceed',
          usesSandbox: false,
          async doRun() {
            return proceed;
          },
        },
      },
    });
    defineRunner({
      name: 'wrong-answer',
      types: {
        bad: {
          options: v.object({}),
          defaultTimeoutMs: 1_000,
          defaultOnError: 'proceed',
          usesSandbox: false,
          // @ts-expect-error: "maybe" is not a decision
          async doRun() {
            return { status: 'ok', decision: { decision: 'maybe' } };
          },
        },
      },
    });
  });
});

describe('defineRunnerType', () => {
  test('types a hook type built apart from its runner, and it fits any runner', () => {
    const schema = v.object({ url: v.pipe(v.string(), v.url()), retries: v.optional(v.number(), 2) });
    const type = defineRunnerType({
      options: schema,
      defaultTimeoutMs: 1_000,
      defaultOnError: 'proceed',
      usesSandbox: false,
      identity: (options) => options.url,
      async doRun(hook) {
        // A default makes the output key present.
        expectTypeOf(hook.options.retries).toEqualTypeOf<number>();
        return proceed;
      },
    });
    expectTypeOf(type).toEqualTypeOf<RunnerType<typeof schema>>();
    expectTypeOf<HookOptions<typeof schema>>().toEqualTypeOf<Readonly<{ url: string; retries: number }>>();
    expectTypeOf(type).toExtend<RunnerType>();
    defineRunner({ name: 'built-apart', types: { web: type } });
  });

  test('the engine side sees untyped options', () => {
    expectTypeOf<Parameters<RunnerType['doRun']>[0]>().toEqualTypeOf<HookDefinition<HookOptions>>();
    expectTypeOf<HookDefinition['options']>().toEqualTypeOf<Readonly<Record<string, unknown>>>();
  });
});
