/**
 * What a prompt hook costs on top of the model call itself: a blocking `type = "prompt"` hook through
 * the whole engine (`emit`, selection, deadline, the runner's request and retry wrapper, reply
 * validation, the decision, the merge) against a bare `client.messages.create` with the same client
 * (same options) and the same request body, to the same local Messages API in a separate process.
 * The two alternate call by call (ABBA order), so drift in the machine or the server hits both alike.
 * Run with `pnpm bench` in packages/runner-llm (after `pnpm -F @hookline/core -F @hookline/runner-command build`).
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import Anthropic from '@anthropic-ai/sdk';
import { createHookEngine, loadConfig } from '@hookline/core';
import { DECISION_TOOL, DECISION_TOOL_NAME, hookUserMessage, PROMPT_SYSTEM } from '../src/hook-instructions.ts';
import { llmRunner } from '../src/index.ts';
import { PROMPT_MAX_TOKENS } from '../src/run-prompt-hook.ts';
import { formatMicros, summarize, type Summary } from '../../../scripts/bench-stats.ts';

const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 2_000);
const WARMUP = 300;
/** Target: the hook within this factor of the bare SDK call (medians). */
const TARGET = 1.1;
const PROMPT = 'Block the stage if the node id mentions production.';

const server = fork(new URL('./messages-server.ts', import.meta.url), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [{ port }] = (await once(server, 'message')) as [{ port: number }];
const client = new Anthropic({ apiKey: 'sk-ant-bench-0123456789', baseURL: `http://127.0.0.1:${port}`, maxRetries: 0 });

const runner = llmRunner({ client });
const config = loadConfig(
  [
    {
      source: 'bench.toml',
      text: `[[hooks]]\nname = "judge"\nevent = "stage_start"\ntype = "prompt"\nprompt = "${PROMPT}"\n`,
    },
  ],
  { runners: [runner] },
);
const engine = createHookEngine({ config, runners: [runner] });
const context = { run_id: 'bench-run', workflow_name: 'bench', node_id: 'build' };
const contextJson = JSON.stringify({ event: 'stage_start', ...context });

async function hook(): Promise<void> {
  const outcome = await engine.emit('stage_start', context);
  if (outcome.hooks[0]?.status !== 'ok' || outcome.decision !== 'proceed')
    throw new Error(`hook failed: ${JSON.stringify(outcome.hooks[0])}`);
}

// The bare contender: the same request the runner sends, with the same per-request options, and the
// minimum a caller must do with the answer (find the tool call and read `ok`).
async function bare(): Promise<void> {
  const controller = new AbortController();
  const message = await client.messages.create(
    {
      model: 'claude-haiku-5-5',
      max_tokens: PROMPT_MAX_TOKENS,
      system: PROMPT_SYSTEM,
      messages: [{ role: 'user', content: hookUserMessage(PROMPT, contextJson) }],
      tools: [DECISION_TOOL],
      tool_choice: { type: 'tool', name: DECISION_TOOL_NAME },
    },
    { signal: controller.signal, timeout: 30_000, maxRetries: 0 },
  );
  const call = message.content.find((block) => block.type === 'tool_use');
  if (call === undefined || (call.input as { ok?: unknown }).ok !== true) throw new Error('bare call got no decision');
}

const contenders = [
  { name: 'bare client.messages.create', call: bare, times: [] as number[], cpu: [] as number[] },
  { name: 'prompt hook via engine.emit', call: hook, times: [] as number[], cpu: [] as number[] },
];

for (let index = 0; index < WARMUP; index++) for (const contender of contenders) await contender.call();
for (let index = 0; index < SAMPLES; index++) {
  const order = index % 2 === 0 ? contenders : [...contenders].reverse();
  for (const contender of order) {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await contender.call();
    contender.times.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuBefore);
    contender.cpu.push((cpu.user + cpu.system) / 1_000);
  }
}

server.send('stats');
const [{ requests }] = (await once(server, 'message')) as [{ requests: number }];
await engine.close();
server.send('stop');

const rows = contenders.map((contender) => summarize(contender.name, contender.times));
const [bareRow, hookRow] = rows as [Summary, Summary];
const ratio = hookRow.median / bareRow.median;
// This process's CPU time per call (the server's is not in it): what the hook adds, without the
// scheduling noise of a shared machine. process.cpuUsage has microsecond resolution, so the mean.
const [bareCpu, hookCpu] = contenders.map(
  (contender) => contender.cpu.reduce((sum, time) => sum + time, 0) / contender.cpu.length,
) as [number, number];
console.log(
  `Node ${process.versions.node}, ${process.platform}/${process.arch}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}; ` +
    `${SAMPLES} alternating samples each after ${WARMUP} warm-up; server in a separate process on 127.0.0.1 (${requests} requests served).`,
);
console.log('');
console.log('| contender | median | p90 | p99 | mean | CPU per call (mean) | samples |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
rows.forEach((row, index) =>
  console.log(
    `| ${row.name} | ${formatMicros(row.median)} | ${formatMicros(row.p90)} | ${formatMicros(row.p99)} | ${formatMicros(row.mean)} | ${formatMicros(index === 0 ? bareCpu : hookCpu)} | ${row.samples} |`,
  ),
);
console.log('');
console.log(
  `hook ÷ bare (medians): ${ratio.toFixed(3)}× (+${formatMicros(hookRow.median - bareRow.median)} per hook) — target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'NOT met'}`,
);
console.log(
  `hook ÷ bare (CPU time in this process): ${(hookCpu / bareCpu).toFixed(3)}× (+${formatMicros(hookCpu - bareCpu)} per hook)`,
);
