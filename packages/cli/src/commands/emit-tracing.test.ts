import { afterEach, beforeEach, expect, test } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../../test-support/otlp-receiver.ts';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// The CLI exports OTLP/HTTP (protobuf) when the standard endpoint variable is set: a real CLI process
// against a real receiver on 127.0.0.1, decoding what arrived.
let scratch: Scratch;
let receiver: OtlpReceiver;
beforeEach(async () => {
  scratch = makeScratch();
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  scratch.cleanup();
  await receiver.close();
});

const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };

test('emit exports a span per emit and per hook, children of the TRACEPARENT it was started with', async () => {
  scratch.write(
    'hookline.toml',
    `[[hooks]]
name = "guard"
event = "stage_start"
command = '''printf '{"decision":"block","reason":"%s"}' "$TRACEPARENT"; exit 2'''
`,
  );
  const result = await runCli(['emit', 'stage_start', '--set', 'run_id=r1', '--json'], {
    cwd: scratch.path,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: 'ci-hooks',
      TRACEPARENT: `00-${CALLER.traceId}-${CALLER.spanId}-01`,
    },
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(2);
  const outcome = JSON.parse(result.stdout) as { hooks: Array<{ decision: { reason: string } }> };

  expect(receiver.requests.map((request) => [request.path, request.headers['content-type']])).toEqual([
    ['/v1/traces', 'application/x-protobuf'],
  ]);
  const emit = receiver.spans.find((span) => span.name === 'hookline.emit stage_start');
  const guard = receiver.spans.find((span) => span.name === 'hookline.hook guard');
  expect(receiver.spans).toHaveLength(2);
  expect(emit).toMatchObject({ traceId: CALLER.traceId, parentSpanId: CALLER.spanId });
  expect(emit!.attributes).toMatchObject({
    'hookline.preset': 'arc',
    'hookline.event': 'stage_start',
    'hookline.session': 'r1',
    'hookline.decision': 'block',
    'hookline.decided_by': 'guard',
  });
  expect(emit!.resource).toMatchObject({ 'service.name': 'ci-hooks' });
  expect(guard).toMatchObject({ traceId: CALLER.traceId, parentSpanId: emit!.spanId, statusCode: 0 });
  expect(guard!.attributes).toMatchObject({
    'hookline.hook.name': 'guard',
    'hookline.hook.type': 'command',
    'hookline.hook.exit_code': 2,
    'hookline.hook.decision': 'block',
    'hookline.hook.status': 'ok',
  });
  // The hook's command saw the trace context of its own span.
  expect(outcome.hooks[0]!.decision.reason).toBe(`00-${CALLER.traceId}-${guard!.spanId}-01`);
});

test('run exports the spans of every line before it exits; a failing hook is an ERROR span', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "slow"\nevent = "run_start"\ncommand = "sleep 5"\ntimeout_ms = 200\non_error = "proceed"\n',
  );
  const input = [
    '{"event":"run_start","run_id":"a","workflow_name":"w"}',
    '{"event":"run_complete","run_id":"a","workflow_name":"w"}',
  ].join('\n');
  const result = await runCli(['run'], {
    cwd: scratch.path,
    input,
    env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces` },
  });
  expect(result.code).toBe(0);
  expect(receiver.spans.map((span) => span.name).sort()).toEqual([
    'hookline.emit run_complete',
    'hookline.emit run_start',
    'hookline.hook slow',
  ]);
  const slow = receiver.spans.find((span) => span.name === 'hookline.hook slow')!;
  expect(slow.statusCode).toBe(2);
  expect(slow.attributes).toMatchObject({
    'hookline.hook.status': 'timed_out',
    'error.type': 'timed_out',
    'hookline.hook.decision': 'proceed',
  });
  expect(slow.resource).toMatchObject({ 'service.name': 'hookline' });
});

test('an unreachable collector is a warning, never a failure of the command', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
  await receiver.close();
  const result = await runCli(['emit', 'run_start', '--json'], {
    cwd: scratch.path,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '2000' },
  });
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'proceed' });
  expect(result.stderr).toMatch(/^hookline: warning: could not export 2 trace spans: /);
  receiver = await startOtlpReceiver();
});
