import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { nearestWord, requiredFields, type Preset } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';
import { cliSessionKey } from './cli-session-key.ts';

/** Where an event's context comes from on the command line. */
export interface ContextInput {
  /** `--context FILE`, or `-` for stdin. */
  readonly file?: string | undefined;
  /** `--set key=value`, in order; later ones win. */
  readonly sets?: readonly string[] | undefined;
}

/** The context to emit, and notes for the user (a `--set` key that looks like a typo). */
export interface BuiltContext {
  readonly context: Record<string, unknown>;
  readonly warnings: readonly string[];
}

/**
 * Builds the context of a command-line emit: the `--context` JSON object, then each `--set`, then
 * the command-line defaults the preset's context schema gives for required fields still missing
 * (`cliDefault`: a fresh session key, or fixed text), so that `hookline emit <event>` works bare; a
 * required field with no default is an error naming the `--set` to add. Optional fields are never
 * filled: without `cwd` hooks run in the CLI's working directory anyway (host and local sandboxes),
 * and a host path would be wrong inside a docker sandbox.
 */
export async function buildContext(input: ContextInput, preset: Preset, io: CliIo): Promise<BuiltContext> {
  const context = input.file === undefined ? {} : await readContextFile(input.file, io);
  const warnings =
    input.sets === undefined || input.sets.length === 0 ? [] : await applySets(context, input.sets, preset);
  for (const field of requiredFields(preset.context)) {
    if (context[field] !== undefined && context[field] !== null) continue;
    const fill = preset.context[field]!.cliDefault;
    if (fill === undefined) {
      throw new CliError(
        'HOOKLINE_CLI_CONTEXT_INVALID',
        `preset "${preset.name}" needs the context field "${field}", and the CLI does not make one up; add --set ${field}=… or put it in the --context object.`,
      );
    }
    context[field] = fill.kind === 'session-key' ? cliSessionKey() : fill.text;
  }
  return { context, warnings };
}

// Loaded only when --set is used: every module on the emit path costs startup time.
async function applySets(context: Record<string, unknown>, sets: readonly string[], preset: Preset): Promise<string[]> {
  const [{ contextFieldTypes }, { parseSet }] = await Promise.all([
    import('./context-fields.ts'),
    import('./parse-set.ts'),
  ]);
  const types = contextFieldTypes(preset);
  const warnings: string[] = [];
  for (const assignment of sets) {
    const { key, value } = parseSet(assignment, types);
    if (!types.has(key)) {
      const near = nearestWord(key, [...types.keys()]);
      if (near !== undefined)
        warnings.push(
          `--set ${key}: not a field of preset "${preset.name}" — did you mean ${near}? (passed through as a host field)`,
        );
    }
    context[key] = value;
  }
  return warnings;
}

async function readContextFile(file: string, io: CliIo): Promise<Record<string, unknown>> {
  const label = file === '-' ? 'stdin' : file;
  let text: string;
  if (file === '-') {
    text = await (await import('./read-stream.ts')).readStream(io.stdin);
  } else {
    try {
      text = readFileSync(resolve(io.cwd, file), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const what = code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? String(error)})`;
      throw new CliError(
        'HOOKLINE_CLI_CONTEXT_INVALID',
        `context file ${file} ${what}; give the path of a JSON object, or - for stdin.`,
        { cause: error },
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      'HOOKLINE_CLI_CONTEXT_INVALID',
      `the context from ${label} is not JSON (${(error as Error).message}); give a JSON object such as {"node_id": "build"}.`,
      { cause: error },
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new CliError(
      'HOOKLINE_CLI_CONTEXT_INVALID',
      `the context from ${label} must be a JSON object, got ${kind}; wrap the fields in {…}.`,
    );
  }
  return { ...(parsed as Record<string, unknown>) };
}
