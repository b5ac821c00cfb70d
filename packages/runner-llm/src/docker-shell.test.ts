// The agent's shell and file tools through a docker sandbox session. @hookline/sandbox-docker is a sibling package
// (not a dependency: runner-llm only sees a SandboxSession), so it is loaded from the workspace when
// present. Without it, or without a Docker engine, the test is skipped with the reason — except under
// CI=true or HOOKLINE_REQUIRE_DOCKER=1, where a present package and a missing engine is a failure.
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxProvider } from '@hookline/core';
import { expect, test, type TestContext } from 'vitest';
import { dockerEngine, localImage } from '../test-support/docker-engine.ts';
import { emitHook } from '../test-support/hooks.ts';
import { scratchDirectory } from '../test-support/scratch.ts';
import { clientFor, finalText, message, scripted, toolResults, toolUse } from '../test-support/messages-api.ts';
import { useMessagesApi } from '../test-support/use-messages-api.ts';
import { llmRunner } from './llm-runner.ts';

const packageDirectory = fileURLToPath(new URL('../../sandbox-docker/', import.meta.url));
const required = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_DOCKER'] === '1';
// Images the docker sandbox's own tests use or default to; the sandbox never pulls.
const imageCandidates = [
  process.env['HOOKLINE_DOCKER_TEST_IMAGE'],
  'hookline-test/busybox:latest',
  'busybox:stable',
].filter((image) => image !== undefined && image !== '') as string[];

const api = useMessagesApi();

/** The docker sandbox's factory and a local image, or undefined after skipping the test with the reason (failing under CI). */
async function dockerOrSkip(
  context: TestContext,
): Promise<
  | { readonly dockerSandbox: (settings?: Record<string, unknown>) => SandboxProvider; readonly image: string }
  | undefined
> {
  const entry = [`${packageDirectory}src/index.ts`, `${packageDirectory}dist/index.js`].find((file) =>
    existsSync(file),
  );
  if (!existsSync(`${packageDirectory}package.json`) || entry === undefined) {
    context.skip(
      `@hookline/sandbox-docker is not in this workspace, or has no entry point yet (${packageDirectory}); the docker tests run once it has`,
    );
  }
  const engine = await dockerEngine();
  if (!engine.ok) {
    const message = `no Docker engine answers (${engine.reason})`;
    if (required)
      throw new Error(
        `${message}, and @hookline/sandbox-docker is present under CI=true or HOOKLINE_REQUIRE_DOCKER=1: start a Docker engine or set DOCKER_HOST`,
      );
    context.skip(`${message}; set HOOKLINE_REQUIRE_DOCKER=1 to make this a failure`);
  }
  const image = await localImage(imageCandidates);
  if (image === undefined) {
    const message = `none of the images ${imageCandidates.join(', ')} is present locally (the docker sandbox never pulls)`;
    if (required)
      throw new Error(
        `${message}: build one (see packages/sandbox-docker's tests) or name one in HOOKLINE_DOCKER_TEST_IMAGE`,
      );
    context.skip(message);
  }
  const docker = (await import(/* @vite-ignore */ entry)) as {
    dockerSandbox?: (settings?: Record<string, unknown>) => SandboxProvider;
  };
  expect(typeof docker.dockerSandbox, '@hookline/sandbox-docker exports dockerSandbox()').toBe('function');
  return { dockerSandbox: docker.dockerSandbox!, image };
}

test('agent shell runs inside the run’s docker container when the hook is sandboxed', async (context) => {
  const docker = await dockerOrSkip(context);
  if (docker === undefined) return;
  const shell = toolUse('shell', { command: 'echo "inside uid=$(id -u)"; test -e /.dockerenv && echo dockerenv' });
  api.respond(scripted(message([shell]), finalText('{"ok": true}')));
  const report = await emitHook(
    llmRunner({ client: clientFor(api) }),
    { type: 'agent', prompt: 'Where am I?' },
    { sandbox: docker.dockerSandbox({ image: docker.image }) },
  );
  expect(report.status, JSON.stringify(report)).toBe('ok');
  const [result] = toolResults(api.requests[1]);
  expect(result?.content).toMatch(/^exit code 0 \(ran in the docker session\)\nstdout:\ninside uid=(?!0\n)\d+\n/);
}, 120_000);

test('a sandboxed agent’s file tools act in the container: a write into the read-only workspace is refused, one into a writable mount lands, reads see the container’s files', async (context) => {
  const docker = await dockerOrSkip(context);
  if (docker === undefined) return;
  // The workspace is mounted read-only (the default); a second folder is mounted over its "sub"
  // folder, so the container sees sub/ differently from the host.
  const cwd = await scratchDirectory('docker-files');
  const overlay = await scratchDirectory('docker-overlay');
  await writeFile(join(cwd, 'data.txt'), 'on the host and in the container\n');
  await mkdir(join(cwd, 'sub'));
  await writeFile(join(cwd, 'sub', 'host-only.txt'), 'hidden in the container\n');
  await writeFile(join(overlay, 'x.txt'), 'seen in the container\n');
  // …and a writable folder (":rw") at out/, where writes go through.
  const writable = await scratchDirectory('docker-writable');
  await mkdir(join(cwd, 'out'));
  await chmod(writable, 0o777);
  // The container runs as 65534: the scratch folders (0700, root's) must be readable to it.
  for (const path of [cwd, overlay, join(cwd, 'sub'), join(cwd, 'out')]) await chmod(path, 0o755);
  for (const path of [join(cwd, 'data.txt'), join(cwd, 'sub', 'host-only.txt'), join(overlay, 'x.txt')])
    await chmod(path, 0o644);

  const calls = [
    toolUse('write_file', { path: 'planted.txt', content: 'x' }),
    toolUse('write_file', { path: 'new/deeper.txt', content: 'x' }),
    toolUse('read_file', { path: 'sub/x.txt' }),
    toolUse('read_file', { path: 'sub/host-only.txt' }),
    toolUse('read_file', { path: 'data.txt' }),
    toolUse('grep', { pattern: 'container' }),
    toolUse('glob', { pattern: '**/*.txt' }),
    toolUse('read_file', { path: '../etc/passwd' }),
    toolUse('write_file', { path: 'out/result.txt', content: 'written in the container\n' }),
  ];
  api.respond(scripted(message(calls), finalText('{"ok": true}')));
  const sandbox = docker.dockerSandbox({
    image: docker.image,
    network: 'none',
    mounts: [`${cwd}:/workspace`, `${overlay}:/workspace/sub`, `${writable}:/workspace/out:rw`],
  });
  const report = await emitHook(
    llmRunner({ client: clientFor(api) }),
    { type: 'agent', prompt: 'Look and write.' },
    { sandbox, context: { cwd } },
  );
  expect(report.status, JSON.stringify(report)).toBe('ok');
  const [planted, deeper, overlaid, hidden, data, grep, glob, outside, result] = toolResults(api.requests[1]);

  for (const refused of [planted, deeper]) {
    expect(refused?.is_error).toBe(true);
    expect(refused?.content).toMatch(
      /^cannot write "(planted\.txt|new\/deeper\.txt)" in the docker sandbox: .*Read-only file system/,
    );
  }
  expect(existsSync(join(cwd, 'planted.txt'))).toBe(false);
  expect(existsSync(join(cwd, 'new'))).toBe(false);
  expect(overlaid).toMatchObject({ content: 'seen in the container\n' });
  expect(overlaid?.is_error).toBeUndefined();
  expect(hidden).toMatchObject({ is_error: true, content: 'no such file or directory: "sub/host-only.txt"' });
  expect(data?.content).toBe('on the host and in the container\n');
  expect(grep?.content).toBe('data.txt:1: on the host and in the container\nsub/x.txt:1: seen in the container');
  expect(glob?.content).toBe('data.txt\nsub/x.txt');
  // The working directory is the container's path for the context's cwd: the confinement names it.
  expect(outside).toMatchObject({
    is_error: true,
    content: expect.stringContaining('is outside the working directory /workspace;'),
  });
  expect(result).toMatchObject({ content: 'wrote 25 bytes to out/result.txt' });
  expect(await readFile(join(writable, 'result.txt'), 'utf8')).toBe('written in the container\n');
  // The model was told the directory the sandbox sees.
  expect(api.requests[0]?.body.system).toContain('the working directory /workspace with the tools');
}, 120_000);
