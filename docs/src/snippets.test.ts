import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInPresets, type DecisionKind } from '@hookline/core';
import { afterAll, describe, expect, test } from 'vitest';
import { DOCS, docPages, read, shown } from './doc-files.ts';
import { codeBlocks, type CodeBlock } from './markdown.ts';
import { runHookline, runNode } from './run-hookline.ts';

// Every TOML and JSON block of the docs is checked by a real `hookline` process:
//
//   ```toml              a config: `hookline validate` accepts it
//   ```toml layer        a later layer: valid over the page's last TOML config above it, without warnings
//   ```toml invalid      a config with mistakes: `hookline validate` rejects it, listing them as file:line
//   ```json decision     a command hook that prints it gets exactly this decision
//   ```json context      a hook receives exactly this context when a host emits it
//   <!-- docs-test: hookline emit … -->
//   ```json              the output of that command, with the page's last TOML block above it as the config
//   ```ts run            a program: `node` runs it (its own asserts check what it shows) and it exits 0
//
// Scratch folders live under docs/node_modules, so `plugins = [...]` in a snippet resolves as it would
// next to a user's config.
const SCRATCH_ROOT = join(DOCS, 'node_modules', '.cache', 'docs-snippets');
mkdirSync(SCRATCH_ROOT, { recursive: true });
const scratchFolders: string[] = [];
afterAll(() => {
  for (const folder of scratchFolders) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = mkdtempSync(join(SCRATCH_ROOT, 'snippet-'));
  scratchFolders.push(folder);
  return folder;
}

interface Snippet {
  readonly block: CodeBlock;
  /** The last TOML config above this block on its page, for `docs-test` commands. */
  readonly config?: CodeBlock;
}

function snippets(file: string): Snippet[] {
  const result: Snippet[] = [];
  let config: CodeBlock | undefined;
  for (const block of codeBlocks(read(file))) {
    const language = block.info[0];
    if (
      language === 'toml' ||
      language === 'json' ||
      (language === 'ts' && block.info[1] === 'run') ||
      block.directive !== undefined
    )
      result.push({ block, ...(config === undefined ? {} : { config }) });
    if (language === 'toml' && block.info.length === 1) config = block;
  }
  return result;
}

const cases = docPages().flatMap((file) =>
  snippets(file).map(
    (snippet) => [`${shown(file)}:${snippet.block.line} ${snippet.block.info.join(' ')}`, snippet] as const,
  ),
);

// Each case runs its own hookline processes in its own folder, so cases run side by side (vitest's maxConcurrency).
describe.concurrent.each(cases)('%s', (_name, { block, config }) => {
  const kind = block.info.slice(1).join(' ');
  if (block.directive !== undefined) {
    test('is what the command above it prints', async () => {
      await checkCommandOutput(block, config);
    });
  } else if (block.info[0] === 'toml' && kind === '') {
    test('is a valid config (hookline validate)', async () => {
      const folder = scratch();
      writeFileSync(join(folder, 'hookline.toml'), block.text);
      const result = await runHookline(['validate', '--config', 'hookline.toml'], folder);
      expect(result.stderr).not.toMatch(/warning|bug/i);
      expect(result.code, result.stderr).toBe(0);
    });
  } else if (block.info[0] === 'toml' && kind === 'layer') {
    test('is a valid layer over the config above it (hookline validate)', async () => {
      expect(config, 'a TOML config above the layer').toBeDefined();
      const folder = scratch();
      writeFileSync(join(folder, 'base.toml'), config!.text);
      writeFileSync(join(folder, 'hookline.toml'), block.text);
      const result = await runHookline(['validate', '--config', 'base.toml', '--config', 'hookline.toml'], folder);
      expect(result.stderr).not.toMatch(/warning|bug/i);
      expect(result.code, result.stderr).toBe(0);
    });
  } else if (block.info[0] === 'toml' && kind === 'invalid') {
    test('is rejected by hookline validate, every problem with its line', async () => {
      const folder = scratch();
      writeFileSync(join(folder, 'hookline.toml'), block.text);
      const result = await runHookline(['validate', '--config', 'hookline.toml'], folder);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^hookline\.toml:\d+: /m);
      expect(result.stderr).not.toMatch(/bug/i);
    });
  } else if (block.info[0] === 'ts' && kind === 'run') {
    test('runs to the end (node)', async () => {
      // Outside node_modules (node strips types only there), with the docs' packages next to it.
      const folder = mkdtempSync(join(tmpdir(), 'hookline-docs-snippet-'));
      scratchFolders.push(folder);
      symlinkSync(join(DOCS, 'node_modules'), join(folder, 'node_modules'));
      writeFileSync(join(folder, 'snippet.ts'), block.text);
      const result = await runNode(join(folder, 'snippet.ts'), folder);
      expect(result.code, result.stderr).toBe(0);
    });
  } else if (block.info[0] === 'json' && kind === 'decision') {
    test('is the decision a command hook gets by printing it', async () => {
      await checkDecision(JSON.parse(block.text) as { decision: DecisionKind; reason?: string; edge_to?: string });
    });
  } else if (block.info[0] === 'json' && kind.startsWith('context')) {
    test('is exactly the context a hook receives', async () => {
      await checkContext(JSON.parse(block.text) as Record<string, unknown>);
    });
  } else {
    test('is marked with what it is', () => {
      expect.fail(
        `a \`\`\`${block.info.join(' ')} block must say what it is: \`\`\`toml, \`\`\`toml layer, \`\`\`toml invalid, \`\`\`json decision, \`\`\`json context, or a <!-- docs-test: hookline … --> comment above it`,
      );
    });
  }
});

/** Events whose host honours each decision, so that a printed decision is kept, not counted as proceed. */
const HONOURING_EVENT: Readonly<Record<DecisionKind, string>> = {
  proceed: 'run_start',
  block: 'run_start',
  skip: 'stage_start',
  override: 'edge_selected',
  allow: 'PreToolUse',
  ask: 'PreToolUse',
};

async function checkDecision(decision: { decision: DecisionKind; reason?: string; edge_to?: string }): Promise<void> {
  const folder = scratch();
  writeFileSync(join(folder, 'decision.json'), JSON.stringify(decision));
  writeFileSync(
    join(folder, 'hookline.toml'),
    `[[hooks]]\nname = "printer"\nevent = "${HONOURING_EVENT[decision.decision]}"\ncommand = "cat decision.json"\n`,
  );
  const result = await runHookline(
    ['emit', HONOURING_EVENT[decision.decision], '--json', '--config', 'hookline.toml'],
    folder,
  );
  const outcome = JSON.parse(result.stdout) as {
    hooks: Array<{ status: string; decision: unknown }>;
    warnings: string[];
  };
  expect(outcome.hooks[0]?.status).toBe('ok');
  expect(outcome.hooks[0]?.decision).toEqual(decision);
  expect(outcome.warnings).toEqual([]);
}

async function checkContext(context: Record<string, unknown>): Promise<void> {
  const event = String(context['event']);
  const owners = builtInPresets.all.filter((preset) => preset.events.some((spec) => spec.name === event));
  expect(
    owners.map((preset) => preset.name),
    `exactly one preset has the event "${event}"`,
  ).toHaveLength(1);
  const preset = owners[0]!;
  const folder = scratch();
  // `cwd` names a folder of the reader's machine; commands must run somewhere that exists.
  const sent = 'cwd' in context ? { ...context, cwd: folder } : context;
  writeFileSync(join(folder, 'context.json'), JSON.stringify(sent));
  writeFileSync(
    join(folder, 'hookline.toml'),
    `preset = "${preset.name}"\n\n[[hooks]]\nname = "recorder"\nevent = "${event}"\ncommand = "cat > '${join(folder, 'received.json')}'"\nsandbox = false\nblocking = true\n`,
  );
  const result = await runHookline(
    ['emit', event, '--context', 'context.json', '--json', '--config', 'hookline.toml'],
    folder,
  );
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(readFileSync(join(folder, 'received.json'), 'utf8'))).toEqual(sent);
}

async function checkCommandOutput(block: CodeBlock, config: CodeBlock | undefined): Promise<void> {
  const words = block.directive!.split(/\s+/);
  expect(words[0], 'a docs-test comment names a hookline command').toBe('hookline');
  expect(config, 'a TOML config above the command').toBeDefined();
  const folder = scratch();
  writeFileSync(join(folder, 'hookline.toml'), config!.text);
  const result = await runHookline([...words.slice(1), '--config', 'hookline.toml'], folder);
  expect(result.stderr).not.toMatch(/bug/i);
  expect(withoutTimings(JSON.parse(result.stdout))).toEqual(withoutTimings(JSON.parse(block.text)));
}

/** The output with every `duration_ms` set to 0: timings differ between runs. */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === 'duration_ms' ? 0 : withoutTimings(inner)]),
  );
}
