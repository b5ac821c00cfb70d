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
  const reader = new JsonReader(text);
  try {
    const data = reader.readValue([]);
    reader.skipSpace();
    if (reader.position < text.length) reader.fail('the end of the text after the top-level value');
    const { lines } = reader;
    return { ok: true, data, lineAt: (path) => lines.get(JSON.stringify(path)) };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const line = reader.lineOf(error.offset);
    const column = error.offset - reader.lineStarts[line - 1]! + 1;
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

/**
 * A cursor over the text: one small method per JSON construct, each starting at `position` and
 * leaving it after what it read. Throws a {@link JsonSyntaxError} at the first problem.
 */
class JsonReader {
  readonly text: string;
  /** The line of every value read so far, by its path (as JSON). */
  readonly lines = new Map<string, number>();
  /** The offset at which each line starts. */
  readonly lineStarts = [0];
  position = 0;

  constructor(text: string) {
    this.text = text;
    for (let index = 0; index < text.length; index++) if (text[index] === '\n') this.lineStarts.push(index + 1);
  }

  lineOf(offset: number): number {
    return lineOfOffset(this.lineStarts, offset);
  }

  skipSpace(): void {
    const { text } = this;
    while (this.position < text.length) {
      const character = text[this.position];
      if (character !== ' ' && character !== '\t' && character !== '\n' && character !== '\r') return;
      this.position++;
    }
  }

  fail(expected: string): never {
    const found =
      this.position >= this.text.length ? 'the end of the text' : `${JSON.stringify(this.text[this.position])}`;
    throw new JsonSyntaxError(`expected ${expected}, found ${found}`, this.position);
  }

  readValue(path: Array<string | number>): unknown {
    this.skipSpace();
    if (!this.lines.has(JSON.stringify(path))) this.lines.set(JSON.stringify(path), this.lineOf(this.position));
    const character = this.text[this.position];
    if (character === '{') return this.readObject(path);
    if (character === '[') return this.readArray(path);
    if (character === '"') return this.readString();
    return this.readLiteral();
  }

  readObject(path: Array<string | number>): Record<string, unknown> {
    const { text } = this;
    const value: Record<string, unknown> = {};
    if (this.opensEmpty('}')) return value;
    for (;;) {
      this.skipSpace();
      if (text[this.position] !== '"')
        this.fail(
          text[this.position] === '}'
            ? 'another member after "," (JSON allows no trailing comma)'
            : 'a double-quoted key',
        );
      const keyLine = this.lineOf(this.position);
      const key = this.readString();
      this.lines.set(JSON.stringify([...path, key]), keyLine);
      this.skipSpace();
      if (text[this.position] !== ':') this.fail(`":" after the key ${JSON.stringify(key)}`);
      this.position++;
      const member = this.readValue([...path, key]);
      Object.defineProperty(value, key, { value: member, enumerable: true, writable: true, configurable: true });
      if (this.endsAfterItem('}', 'a member')) return value;
    }
  }

  readArray(path: Array<string | number>): unknown[] {
    const value: unknown[] = [];
    if (this.opensEmpty(']')) return value;
    for (;;) {
      this.skipSpace();
      if (this.text[this.position] === ']') this.fail('another element after "," (JSON allows no trailing comma)');
      value.push(this.readValue([...path, value.length]));
      if (this.endsAfterItem(']', 'an element')) return value;
    }
  }

  readString(): string {
    const { text } = this;
    const start = this.position;
    this.position++;
    while (this.position < text.length) {
      const character = text[this.position]!;
      if (character === '"') {
        this.position++;
        try {
          return JSON.parse(text.slice(start, this.position)) as string;
        } catch {
          throw new JsonSyntaxError('invalid escape sequence or control character in a string', start);
        }
      }
      if (character === '\\') this.position++;
      else if (character === '\n')
        throw new JsonSyntaxError('a string must end on its line (write a line break as \\n)', this.position);
      this.position++;
    }
    throw new JsonSyntaxError('unterminated string', start);
  }

  readLiteral(): unknown {
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      this.text.slice(this.position, this.position + 400),
    );
    if (literal === null) this.fail('a value (an object, array, string, number, true, false or null)');
    this.position += literal[0].length;
    return JSON.parse(literal[0]);
  }

  // Whether the container ends after an item: `,` asks for another item, `closer` ends it.
  endsAfterItem(closer: '}' | ']', item: string): boolean {
    this.skipSpace();
    if (this.text[this.position] !== ',' && this.text[this.position] !== closer)
      this.fail(`"," or "${closer}" after ${item}`);
    return this.text[this.position++] === closer;
  }

  // Whether the container is empty: it opens at `position` and `closer` follows at once.
  opensEmpty(closer: '}' | ']'): boolean {
    this.position++;
    this.skipSpace();
    if (this.text[this.position] !== closer) return false;
    this.position++;
    return true;
  }
}
