// The agent's shell through a bubblewrap sandbox session. @hookline/sandbox-bubblewrap is a sibling
// package (not a dependency: runner-llm only sees a SandboxSession), so it is loaded from the
// workspace when present. Without a working bwrap the test is skipped with the reason — except under
// CI=true or HOOKLINE_REQUIRE_BUBBLEWRAP=1, where that is a failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SandboxProvider } from '@hookline/core';
import { expect, test } from 'vitest';
import { emitHook } from '../test-support/hooks.ts';
import { clientFor, finalText, message, scripted, toolResults, toolUse } from '../test-support/messages-api.ts';
import { useMessagesApi } from '../test-support/use-messages-api.ts';
import { llmRunner } from './llm-runner.ts';

const packageDirectory = fileURLToPath(new URL('../../sandbox-bubblewrap/', import.meta.url));
const required = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_BUBBLEWRAP'] === '1';

const api = useMessagesApi();

test('agent shell runs inside a bubblewrap sandbox when the hook is sandboxed', async (context) => {
  const entry = [`${packageDirectory}src/index.ts`, `${packageDirectory}dist/index.js`].find((file) =>
    existsSync(file),
  );
  if (entry === undefined)
    return context.skip(`@hookline/sandbox-bubblewrap is not in this workspace (${packageDirectory})`);
  const probe = spawnSync('bwrap', ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--', 'true'], {
    encoding: 'utf8',
  });
  if (probe.error !== undefined || probe.status !== 0) {
    const why = `bwrap cannot make a sandbox here (${probe.error?.message ?? probe.stderr.trim()})`;
    if (required)
      throw new Error(
        `${why}, and CI=true or HOOKLINE_REQUIRE_BUBBLEWRAP=1 require it: install Debian's bubblewrap package`,
      );
    return context.skip(`${why}; set HOOKLINE_REQUIRE_BUBBLEWRAP=1 to make this a failure`);
  }
  const bubblewrap = (await import(/* @vite-ignore */ entry)) as {
    bubblewrapSandbox?: (settings?: Record<string, unknown>) => SandboxProvider;
  };
  expect(typeof bubblewrap.bubblewrapSandbox, '@hookline/sandbox-bubblewrap exports bubblewrapSandbox()').toBe(
    'function',
  );

  const shell = toolUse('shell', {
    command: 'echo "inside uid=$(id -u) host=$(hostname) procs=$(ls /proc | grep -c "^[0-9]")"',
  });
  api.respond(scripted(message([shell]), finalText('{"ok": true}')));
  const report = await emitHook(
    llmRunner({ client: clientFor(api) }),
    { type: 'agent', prompt: 'Where am I?' },
    { sandbox: bubblewrap.bubblewrapSandbox!() },
  );
  expect(report.status, JSON.stringify(report)).toBe('ok');
  const [result] = toolResults(api.requests[1]);
  // Its own pid namespace: pid 1 (bwrap), the shell and its children — no host process.
  expect(result?.content).toMatch(
    /^exit code 0 \(ran in the bubblewrap session\)\nstdout:\ninside uid=65534 host=hookline-sandbox procs=\d\n/,
  );
}, 60_000);
