import type { ConfigIssue } from './config-issue.ts';
import { lineOfOffset } from './source-lines.ts';

/** A path into a JSON document: object keys and array indexes, from the top. */
export type JsonPath = ReadonlyArray<string | number>;

/** The parsed document and the line where each value starts, or the syntax problem with its line. */
export type JsonParseResult =
  | { readonly ok: true; readonly data: unknown; readonly lineAt: (path: JsonPath) => number | undefined }
  | { readonly ok: false; readonly issue: ConfigIssue };

class JsonSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.offset = offset;
  }
}

/**
 * Parses JSON text (RFC 8259, as `JSON.parse` accepts it) and records the line of every value — an
 * object member's line is its key's — so config issues can name the line of a key inside a settings
 * file. A syntax error becomes one issue naming the line and column.
 */
export function parseJson(text: string, file: string): JsonParseResult {
  const lines = new Map<string, number>();
  const lineStarts = [0];
  for (let index = 0; index < text.length; index++) if (text[index] === '\n') lineStarts.push(index + 1);
  const lineOf = (offset: number): number => lineOfOffset(lineStarts, offset);
  let position = 0;

  const skipSpace = (): void => {
    while (position < text.length) {
      const character = text[position];
      if (character !== ' ' && character !== '\t' && character !== '\n' && character !== '\r') return;
      position++;
    }
  };
  const describe = (): string =>
    position >= text.length ? 'the end of the text' : `${JSON.stringify(text[position])}`;
  const fail = (expected: string): never => {
    throw new JsonSyntaxError(`expected ${expected}, found ${describe()}`, position);
  };

  const readString = (): string => {
    const start = position;
    position++;
    while (position < text.length) {
      const character = text[position]!;
      if (character === '"') {
        position++;
        try {
          return JSON.parse(text.slice(start, position)) as string;
        } catch {
          throw new JsonSyntaxError('invalid escape sequence or control character in a string', start);
        }
      }
      if (character === '\\') position++;
      else if (character === '\n')
        throw new JsonSyntaxError('a string must end on its line (write a line break as \\n)', position);
      position++;
    }
    throw new JsonSyntaxError('unterminated string', start);
  };

  // Whether the container ends after an item: `,` asks for another item, `closer` ends it.
  const endsAfterItem = (closer: '}' | ']', item: string): boolean => {
    skipSpace();
    if (text[position] !== ',' && text[position] !== closer) fail(`"," or "${closer}" after ${item}`);
    return text[position++] === closer;
  };
  // Whether the container is empty: it opens at `position` and `closer` follows at once.
  const opensEmpty = (closer: '}' | ']'): boolean => {
    position++;
    skipSpace();
    if (text[position] !== closer) return false;
    position++;
    return true;
  };

  const readValue = (path: Array<string | number>): unknown => {
    skipSpace();
    if (!lines.has(JSON.stringify(path))) lines.set(JSON.stringify(path), lineOf(position));
    const character = text[position];
    if (character === '{') {
      const value: Record<string, unknown> = {};
      if (opensEmpty('}')) return value;
      for (;;) {
        skipSpace();
        if (text[position] !== '"')
          fail(
            text[position] === '}' ? 'another member after "," (JSON allows no trailing comma)' : 'a double-quoted key',
          );
        const keyLine = lineOf(position);
        const key = readString();
        lines.set(JSON.stringify([...path, key]), keyLine);
        skipSpace();
        if (text[position] !== ':') fail(`":" after the key ${JSON.stringify(key)}`);
        position++;
        const member = readValue([...path, key]);
        Object.defineProperty(value, key, { value: member, enumerable: true, writable: true, configurable: true });
        if (endsAfterItem('}', 'a member')) return value;
      }
    }
    if (character === '[') {
      const value: unknown[] = [];
      if (opensEmpty(']')) return value;
      for (;;) {
        skipSpace();
        if (text[position] === ']') fail('another element after "," (JSON allows no trailing comma)');
        value.push(readValue([...path, value.length]));
        if (endsAfterItem(']', 'an element')) return value;
      }
    }
    if (character === '"') return readString();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(position, position + 400),
    );
    if (literal === null) fail('a value (an object, array, string, number, true, false or null)');
    position += literal![0].length;
    return JSON.parse(literal![0]);
  };

  try {
    const data = readValue([]);
    skipSpace();
    if (position < text.length) fail('the end of the text after the top-level value');
    return { ok: true, data, lineAt: (path) => lines.get(JSON.stringify(path)) };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const line = lineOf(error.offset);
    const column = error.offset - lineStarts[line - 1]! + 1;
    return {
      ok: false,
      issue: {
        file,
        line,
        message: `invalid JSON at column ${column}: ${error.message}`,
        fix: 'correct the syntax at that position (JSON needs double-quoted keys and strings, commas between items, no trailing comma and no comments)',
      },
    };
  }
}
