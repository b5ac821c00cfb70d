// Writes packages/core/hookline.schema.json: the config JSON Schema for the first-party runners and
// sandbox providers (a config's `#:schema` line points editors at it). With --check, fails when the
// file is stale. Each runner package adds its factory to `runners` below when it lands, and every
// factory that declares a settings table (`factory.settingsTable`) adds it to `tables`.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configJsonSchema, type Runner } from '../packages/core/src/index.ts';
import { commandRunner } from '../packages/runner-command/src/index.ts';
import { httpRunner } from '../packages/runner-http/src/index.ts';
import { llmRunner } from '../packages/runner-llm/src/index.ts';
import { scriptRunner } from '../packages/runner-script/src/index.ts';
import { bubblewrapSandbox } from '../packages/sandbox-bubblewrap/src/index.ts';
import { dockerSandbox } from '../packages/sandbox-docker/src/index.ts';

const runners: Runner[] = [commandRunner(), httpRunner(), llmRunner(), scriptRunner()];
const tables = [llmRunner.settingsTable, bubblewrapSandbox.settingsTable, dockerSandbox.settingsTable];

const target = fileURLToPath(new URL('../packages/core/hookline.schema.json', import.meta.url));
const text = `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...configJsonSchema(runners, undefined, tables) }, null, 2)}\n`;
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current !== text) {
    console.error(`${target} is out of date with the runners' schemas: run \`pnpm schema\` and commit the result.`);
    process.exit(1);
  }
  console.log('hookline.schema.json is up to date');
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
