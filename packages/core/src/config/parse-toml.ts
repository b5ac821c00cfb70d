import { parse, TomlError } from 'smol-toml';
import type { ConfigIssue } from './config-issue.ts';

/** The parsed document, or the parse problem with its line. */
export type TomlParseResult =
  { readonly ok: true; readonly data: Record<string, unknown> } | { readonly ok: false; readonly issue: ConfigIssue };

/** Parses TOML text; a syntax error becomes one issue naming the line and column. */
export function parseToml(text: string, file: string): TomlParseResult {
  try {
    return { ok: true, data: parse(text) };
  } catch (error) {
    if (error instanceof TomlError) {
      const firstLine = error.message.split('\n')[0] ?? error.message;
      return {
        ok: false,
        issue: {
          file,
          line: error.line,
          message: `invalid TOML at column ${error.column}: ${firstLine.replace(/^Invalid TOML document:\s*/i, '')}`,
          fix: 'correct the syntax at that position (strings need quotes, tables need [brackets])',
        },
      };
    }
    throw error;
  }
}
