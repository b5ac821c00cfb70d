import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHookEngine, loadConfig, type HookEngine, type Runner } from '@hookline/core';
import { defineRunner } from '@hookline/core/plugin';
import { commandRunner, localSandbox } from '@hookline/runner-command';
import { httpRunner } from '@hookline/runner-http';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { object } from 'valibot';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { otelObserver } from './otel-observer.ts';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  // A host's span must be the parent of the emit span: that takes a context manager, as in an app.
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await provider.shutdown();
});

const engines: HookEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
  exporter.reset();
});

function engineFor(
  toml: string,
  runners: Runner[] = [commandRunner()],
  observer = otelObserver({ tracerProvider: provider }),
): HookEngine {
  const config = loadConfig([{ text: toml, source: 'hookline.toml' }], { runners });
  const engine = createHookEngine({ config, runners, sandbox: localSandbox(), observer });
  engines.push(engine);
  return engine;
}

function spanNamed(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(
    found,
    `one span named ${name} among ${exporter
      .getFinishedSpans()
      .map((span) => span.name)
      .join(', ')}`,
  ).toHaveLength(1);
  return found[0]!;
}

const traceparentOf = (span: ReadableSpan): string =>
  `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;

test('a span per emit, a child span per hook, with the outcome as attributes and the trace context in TRACEPARENT', async () => {
  const engine = engineFor(`
[[hooks]]
name = "guard"
event = "stage_start"
command = '''printf '{"decision":"proceed","reason":"%s"}' "$TRACEPARENT"'''

[[hooks]]
name = "notify"
event = "stage_start"
blocking = false
sandbox = false
command = "exit 3"
`);
  const host = provider.getTracer('host');
  const outcome = await host.startActiveSpan('host step', async (span) => {
    const pending = await engine.emit('stage_start', { run_id: 'r1', workflow_name: 'ship', node_id: 'build' });
    const settled = await pending.settled;
    span.end();
    return settled;
  });

  const hostSpan = spanNamed('host step');
  const emit = spanNamed('hookline.emit stage_start');
  const guard = spanNamed('hookline.hook guard');
  const notify = spanNamed('hookline.hook notify');
  expect(emit.parentSpanContext?.spanId).toBe(hostSpan.spanContext().spanId);
  expect(emit.spanContext().traceId).toBe(hostSpan.spanContext().traceId);
  expect(guard.parentSpanContext?.spanId).toBe(emit.spanContext().spanId);
  expect(notify.parentSpanContext?.spanId).toBe(emit.spanContext().spanId);
  expect(emit.attributes).toEqual({
    'hookline.preset': 'arc',
    'hookline.event': 'stage_start',
    'hookline.session': 'r1',
    'hookline.decision': 'proceed',
    'hookline.hooks': 2,
    'hookline.hooks.failed': 0,
    'hookline.warnings': 1,
  });
  expect(guard.attributes).toMatchObject({
    'hookline.preset': 'arc',
    'hookline.event': 'stage_start',
    'hookline.hook.name': 'guard',
    'hookline.hook.type': 'command',
    'hookline.hook.blocking': true,
    'hookline.hook.sandbox': 'local',
    'hookline.hook.status': 'ok',
    'hookline.hook.decision': 'proceed',
    'hookline.hook.exit_code': 0,
  });
  expect(notify.attributes).toMatchObject({
    'hookline.hook.sandbox': 'host',
    'hookline.hook.exit_code': 3,
    'hookline.hook.decision': 'block',
    'hookline.hook.blocking': false,
  });
  // The command saw its own span's context: work it starts joins the trace under the hook.
  expect(outcome.hooks[0]!.decision).toEqual({ decision: 'proceed', reason: traceparentOf(guard) });
  // The emit span ends after its non-blocking hooks, so it encloses them. The simple processor
  // exports each span as it ends, so the order of the finished spans is the order of the ends; their
  // end times are not compared, since each span anchors its clock on Date.now() (1 ms steps).
  const ended = exporter.getFinishedSpans().map((span) => span.name);
  expect(ended.indexOf('hookline.hook notify')).toBeLessThan(ended.indexOf('hookline.emit stage_start'));
  expect(ended.indexOf('hookline.hook guard')).toBeLessThan(ended.indexOf('hookline.emit stage_start'));
});

test('a hook that times out or fails has status ERROR and an exception event; the emit records the decision', async () => {
  const engine = engineFor(`
[[hooks]]
name = "slow"
event = "stage_start"
command = "sleep 5"
timeout_ms = 300
`);
  const outcome = await engine.emit('stage_start', { run_id: 'r2', workflow_name: 'ship' });
  await outcome.settled;
  const slow = spanNamed('hookline.hook slow');
  expect(slow.status).toEqual({ code: SpanStatusCode.ERROR, message: 'hook timed out after 300 ms' });
  expect(slow.attributes).toMatchObject({
    'hookline.hook.status': 'timed_out',
    'error.type': 'timed_out',
    'hookline.hook.decision': 'block',
  });
  expect(
    slow.events.map((event) => [
      event.name,
      event.attributes?.['exception.type'],
      event.attributes?.['exception.message'],
    ]),
  ).toEqual([['exception', 'HookTimedOut', 'hook timed out after 300 ms']]);
  expect(spanNamed('hookline.emit stage_start').attributes).toMatchObject({
    'hookline.decision': 'block',
    'hookline.reason': 'hook timed out after 300 ms',
    'hookline.decided_by': 'slow',
    'hookline.hooks.failed': 1,
  });
});

test('an HTTP hook gets the traceparent header of its span, and its span the HTTP status', async () => {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    received.push(request.headers);
    request
      .resume()
      .on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"decision":"proceed"}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const engine = engineFor(
      `
[[hooks]]
name = "webhook"
event = "run_start"
type = "http"
url = "http://127.0.0.1:${port}/hook"
tls = "off"
`,
      [httpRunner()],
    );
    await (
      await engine.emit('run_start', { run_id: 'r3', workflow_name: 'ship' })
    ).settled;
    const webhook = spanNamed('hookline.hook webhook');
    expect(received).toHaveLength(1);
    expect(received[0]!['traceparent']).toBe(traceparentOf(webhook));
    expect(webhook.attributes).toMatchObject({
      'http.response.status_code': 200,
      'hookline.hook.type': 'http',
      'hookline.hook.status': 'ok',
    });
  } finally {
    server.close();
  }
});

test("an LLM hook's token usage and model become gen_ai attributes", async () => {
  // The report fields @hookline/runner-llm writes (`model`, `usage`), from a runner that answers offline.
  const judge = defineRunner({
    name: 'offline-judge',
    types: {
      prompt: {
        options: object({}),
        defaultTimeoutMs: 1000,
        defaultOnError: 'proceed',
        usesSandbox: false,
        doRun: async () => ({
          status: 'ok',
          decision: { decision: 'proceed' },
          details: { model: 'claude-haiku', usage: { input_tokens: 120, output_tokens: 7 } },
        }),
      },
    },
  });
  const engine = engineFor('[[hooks]]\nname = "judge"\nevent = "run_start"\ntype = "prompt"\n', [judge]);
  await (
    await engine.emit('run_start', { run_id: 'r4', workflow_name: 'ship' })
  ).settled;
  expect(spanNamed('hookline.hook judge').attributes).toMatchObject({
    'gen_ai.request.model': 'claude-haiku',
    'gen_ai.usage.input_tokens': 120,
    'gen_ai.usage.output_tokens': 7,
  });
});

test('an emit that selects no hook still gets its span', async () => {
  const engine = engineFor('[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
  await engine.emit('stage_complete', { run_id: 'r5', workflow_name: 'ship' });
  await expect
    .poll(() => exporter.getFinishedSpans().map((span) => span.name))
    .toEqual(['hookline.emit stage_complete']);
  expect(spanNamed('hookline.emit stage_complete').attributes).toMatchObject({
    'hookline.decision': 'proceed',
    'hookline.hooks': 0,
  });
});

test('with no SDK registered the observer records nothing and hooks get no TRACEPARENT', async () => {
  // The global provider of @opentelemetry/api: a no-op, as in a host that never set up tracing.
  const engine = engineFor(
    `[[hooks]]\nname = "peek"\nevent = "run_start"\ncommand = '''printf '{"decision":"proceed","reason":"[%s]"}' "$TRACEPARENT"'''\n`,
    undefined,
    otelObserver(),
  );
  const outcome = await engine.emit('run_start', { run_id: 'r6', workflow_name: 'ship' });
  expect(outcome.hooks[0]!.decision).toEqual({ decision: 'proceed', reason: '[]' });
  expect(trace.getTracerProvider()).not.toBe(provider);
  expect(exporter.getFinishedSpans()).toEqual([]);
});
