import type { ConfigIssue } from './config-issue.ts';
import { parseToml } from './parse-toml.ts';
import { locateSourceLines, type SourceLines } from './source-lines.ts';

/** A config source as text: usually a file's content and its path. */
export interface ConfigText {
  readonly text: string;
  /** Named in every issue; a file path, or a label such as `<inline>`. */
  readonly source: string;
}

/** A parsed source, before validation: enough to read `plugins` and load them first. */
export interface ConfigSource {
  readonly file: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly lines: SourceLines;
  /** The `plugins` list, when it is a list of strings (validation reports it otherwise). */
  readonly plugins: readonly string[];
  /** The TOML syntax error, when the text does not parse; `data` is empty then. */
  readonly parseIssue?: ConfigIssue;
}

/**
 * Parses one source. It never throws for bad input: a syntax error is kept as `parseIssue` so that
 * loading can report the problems of every source at once.
 */
export function readConfigSource(config: ConfigText): ConfigSource {
  const lines = locateSourceLines(config.text);
  const parsed = parseToml(config.text, config.source);
  if (!parsed.ok) return { file: config.source, data: {}, lines, plugins: [], parseIssue: parsed.issue };
  const plugins = parsed.data['plugins'];
  return {
    file: config.source,
    data: parsed.data,
    lines,
    plugins: Array.isArray(plugins) && plugins.every((plugin) => typeof plugin === 'string') ? plugins : [],
  };
}
