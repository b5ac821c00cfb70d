// `file = "…"` hooks: resolved from the config file's folder, read on first run, re-read on change.
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emitSettled, scriptEngine } from '../test-support/script-engine.ts';
import { scriptRunner } from './script-runner.ts';

let folder: string;
const runner = scriptRunner({ poolSize: 1 });

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hookline-script-'));
});
afterAll(async () => {
  await runner.doClose?.();
  await rm(folder, { recursive: true, force: true });
});

function fileHook(file: string): string {
  return `[[hooks]]\nname = "from-file"\nevent = "stage_start"\ntype = "script"\nfile = ${JSON.stringify(file)}\n`;
}

async function runFileHook(file: string) {
  const engine = scriptEngine(fileHook(file), runner, join(folder, 'hookline.toml'));
  try {
    return (await emitSettled(engine)).hooks[0];
  } finally {
    await engine.close();
  }
}

describe('file scripts', () => {
  test("a relative path is read from the config file's folder", async () => {
    await writeFile(
      join(folder, 'freeze.js'),
      "if (context.node_id === 'deploy') {\n  return { decision: 'block', reason: 'frozen by file' };\n}\n",
    );
    expect(await runFileHook('freeze.js')).toMatchObject({
      status: 'ok',
      decision: { decision: 'block', reason: 'frozen by file' },
    });
  });

  test('a changed file takes effect on the next run', async () => {
    const path = join(folder, 'changing.js');
    await writeFile(path, 'return { decision: "block", reason: "v1" }');
    expect((await runFileHook('changing.js'))?.decision).toMatchObject({ reason: 'v1' });
    await writeFile(path, 'return { decision: "block", reason: "v2" }');
    // Same size, so only the modification time tells the versions apart.
    const later = new Date(Date.now() + 5_000);
    await utimes(path, later, later);
    expect((await runFileHook('changing.js'))?.decision).toMatchObject({ reason: 'v2' });
  });

  test('a missing file fails the hook, naming the path it looked at', async () => {
    const report = await runFileHook('nope/missing.js');
    expect(report).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
    expect(report?.error).toBe(
      `script file ${join(folder, 'nope/missing.js')} does not exist; \`file\` is resolved from the folder of the config file that names it`,
    );
  });

  test('a directory is not a script', async () => {
    expect((await runFileHook('.'))?.error).toMatch(/is not a file/);
  });

  test('a syntax error in a file fails the hook with path:line:column', async () => {
    await writeFile(join(folder, 'broken.js'), 'const a = 1;\nreturn a +;\n');
    const report = await runFileHook('broken.js');
    expect(report?.status).toBe('failed');
    expect(report?.error).toBe(
      `script file ${join(folder, 'broken.js')} has a syntax error: Unexpected token ';' (at ${join(folder, 'broken.js')}:2:11)`,
    );
  });

  test('a throw in a file names the file and line', async () => {
    await writeFile(join(folder, 'throws.js'), '\n\nthrow new Error("from the file");\n');
    const report = await runFileHook('throws.js');
    expect(report?.error).toBe(`script threw Error: from the file (at ${join(folder, 'throws.js')}:3:7)`);
  });

  test('an absolute path is used as it is', async () => {
    await writeFile(join(folder, 'absolute.js'), 'return false');
    expect(await runFileHook(join(folder, 'absolute.js'))).toMatchObject({
      status: 'ok',
      decision: { decision: 'block' },
    });
  });
});
