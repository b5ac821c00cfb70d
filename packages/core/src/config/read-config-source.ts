import { configSizeIssue, longStringIssue } from './config-bounds.ts';
import type { ConfigIssue } from './config-issue.ts';
import { parseJson } from './parse-json.ts';
import { parseToml } from './parse-toml.ts';
import { jsonSourceLines, locateSourceLines, type SourceLines } from './source-lines.ts';

/** The syntax a config source is written in. */
export type ConfigFormat = 'toml' | 'json';

/** A config source as text: usually a file's content and its path. */
export interface ConfigText {
  readonly text: string;
  /** Named in every issue; a file path, or a label such as `<inline>`. */
  readonly source: string;
  /** The syntax; by default JSON when `source` ends in `.json`, else TOML. */
  readonly format?: ConfigFormat;
}

/** A parsed source, before validation: enough to read `plugins` and load them first. */
export interface ConfigSource {
  readonly file: string;
  readonly format?: ConfigFormat;
  readonly data: Readonly<Record<string, unknown>>;
  readonly lines: SourceLines;
  /** The `plugins` list, when it is a list of strings (validation reports it otherwise). */
  readonly plugins: readonly string[];
  /** The syntax error, when the text does not parse; `data` is empty then. */
  readonly parseIssue?: ConfigIssue;
}

/**
 * Parses one source. It never throws for bad input: a syntax error is kept as `parseIssue` so that
 * loading can report the problems of every source at once.
 */
export function readConfigSource(config: ConfigText): ConfigSource {
  const format = config.format ?? (config.source.toLowerCase().endsWith('.json') ? 'json' : 'toml');
  // Sizes first: what is too large is neither parsed nor validated, where the cost would explode.
  const tooLarge = configSizeIssue(config.source, config.text);
  if (tooLarge !== undefined)
    return {
      file: config.source,
      format,
      data: {},
      lines: jsonSourceLines(() => undefined),
      plugins: [],
      parseIssue: tooLarge,
    };
  const source = format === 'json' ? readJsonSource(config) : readTomlSource(config, format);
  const tooLong =
    source.parseIssue === undefined ? longStringIssue(config.source, source.data, source.lines) : undefined;
  return tooLong === undefined ? source : { ...source, data: {}, plugins: [], parseIssue: tooLong };
}

function readTomlSource(config: ConfigText, format: ConfigFormat): ConfigSource {
  const lines = locateSourceLines(config.text);
  const parsed = parseToml(config.text, config.source);
  if (!parsed.ok) return { file: config.source, data: {}, lines, plugins: [], parseIssue: parsed.issue };
  return {
    file: config.source,
    format,
    data: parsed.data,
    lines,
    plugins: pluginNames(parsed.data['plugins']),
  };
}

// A JSON source (a settings file): the top level must be an object, as a TOML document's is.
function readJsonSource(config: ConfigText): ConfigSource {
  const parsed = parseJson(config.text, config.source);
  if (!parsed.ok)
    return {
      file: config.source,
      format: 'json',
      data: {},
      lines: jsonSourceLines(() => undefined),
      plugins: [],
      parseIssue: parsed.issue,
    };
  const lines = jsonSourceLines(parsed.lineAt);
  if (typeof parsed.data !== 'object' || parsed.data === null || Array.isArray(parsed.data)) {
    const issue = {
      file: config.source,
      line: 1,
      message: 'the top level of a JSON config must be an object',
      fix: 'wrap the settings in {…}, e.g. {"hooks": {…}}',
    };
    return { file: config.source, format: 'json', data: {}, lines, plugins: [], parseIssue: issue };
  }
  const data = parsed.data as Record<string, unknown>;
  return { file: config.source, format: 'json', data, lines, plugins: pluginNames(data['plugins']) };
}

function pluginNames(plugins: unknown): readonly string[] {
  return Array.isArray(plugins) && plugins.every((plugin) => typeof plugin === 'string') ? plugins : [];
}
