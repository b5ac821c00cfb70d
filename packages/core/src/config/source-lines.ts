/**
 * Line numbers for the parts of a TOML config, so every issue can name its line. The TOML parser
 * returns plain data without positions; this scanner reads the same text for table headers and keys.
 */
export interface SourceLines {
  /** Line of a top-level key or table (`preset`, `[sandbox]`, the first `[[hooks]]`). */
  topLevel(key: string): number | undefined;
  /** Line of the `index`-th hook's table header. */
  hook(index: number): number | undefined;
  /** Line of a key inside the `index`-th hook (its own table or a `[hooks.x]` sub-table), else the hook's line. */
  hookKey(index: number, key: string): number | undefined;
  /** Line of a key inside the `index`-th hook or its sub-tables, only when it is written there. */
  findHookKey(index: number, key: string): number | undefined;
  /** Line of a key inside a plain table such as `[hooks]` (the `task` dialect), by the table's dotted name. */
  tableKey(table: string, key: string): number | undefined;
  /** Line where the `item`-th element (0-based) of an array-valued key of a plain table starts. */
  tableArrayItem(table: string, key: string, item: number): number | undefined;
  /**
   * Line of the value at `path` (object keys and array indexes from the top; a member's line is its
   * key's). Exact for JSON sources; for TOML, the top-level keys and `hooks[i].key` only.
   */
  at(path: ReadonlyArray<string | number>): number | undefined;
}

/** The 1-based line holding `offset`, given the offset where each line starts (ascending, from 0). */
export function lineOfOffset(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** {@link SourceLines} of a JSON source, from the line of each value its parser recorded. */
export function jsonSourceLines(lineAt: (path: ReadonlyArray<string | number>) => number | undefined): SourceLines {
  const tablePath = (table: string): string[] => table.split('.');
  return {
    topLevel: (key) => lineAt([key]),
    hook: (index) => lineAt(['hooks', index]),
    hookKey: (index, key) => lineAt(['hooks', index, key]) ?? lineAt(['hooks', index]),
    findHookKey: (index, key) => lineAt(['hooks', index, key]),
    tableKey: (table, key) => lineAt([...tablePath(table), key]),
    tableArrayItem: (table, key, item) => lineAt([...tablePath(table), key, item]),
    at: lineAt,
  };
}

const ARRAY_TABLE = /^\s*\[\[\s*([^\]]*?)\s*\]\]/;
const TABLE = /^\s*\[\s*([^\]]*?)\s*\]/;
const KEY = /^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*[.=]/;

/** Where a key of a plain table was written: its line, and the text offset just after the key. */
interface KeyPlace {
  readonly line: number;
  readonly offset: number;
}

/** Scans `text` once; hooks written as an inline array (`hooks = [{…}]`) all map to that line. */
export function locateSourceLines(text: string): SourceLines {
  const scan = scanToml(text);
  const { topLevel, hooks, tables, lineStarts } = scan;
  const inlineHooksLine = hooks.length === 0 ? topLevel.get('hooks') : undefined;
  const lineOf = (position: number): number => lineOfOffset(lineStarts, position);
  const itemLines = new Map<KeyPlace, number[]>();
  return {
    topLevel: (key) => topLevel.get(key),
    hook: (index) => hooks[index]?.line ?? inlineHooksLine,
    hookKey: (index, key) => hooks[index]?.keys.get(key) ?? hooks[index]?.line ?? inlineHooksLine,
    findHookKey: (index, key) => hooks[index]?.keys.get(key),
    tableKey: (name, key) => tables.get(name)?.get(key)?.line,
    tableArrayItem(name, key, item) {
      const place = tables.get(name)?.get(key);
      if (place === undefined) return undefined;
      let found = itemLines.get(place);
      if (found === undefined) {
        found = arrayItemOffsets(text, place.offset).map(lineOf);
        itemLines.set(place, found);
      }
      return found[item];
    },
    at(path) {
      if (path.length === 1) return topLevel.get(String(path[0]));
      if (path[0] !== 'hooks' || typeof path[1] !== 'number') return undefined;
      return path.length === 2
        ? hooks[path[1]]?.line
        : path.length === 3
          ? hooks[path[1]]?.keys.get(String(path[2]))
          : undefined;
    },
  };
}

/** What one pass over a TOML text found, and (while it scans) where it is. */
interface TomlScan {
  /** The first line of each top-level key or table. */
  readonly topLevel: Map<string, number>;
  /** Each `[[hooks]]` table's line and the first line of each of its keys (and `[hooks.x]` sub-tables). */
  readonly hooks: Array<{ line: number; keys: Map<string, number> }>;
  /** The keys of each plain table, by the table's dotted name. */
  readonly tables: Map<string, Map<string, KeyPlace>>;
  /** The offset at which each line starts. */
  readonly lineStarts: number[];
  /** The kind of table the lines being read belong to. */
  section: 'top' | 'hook' | 'table' | 'other';
  /** The keys of the plain table being read, when `section` is `table`. */
  table: Map<string, KeyPlace> | undefined;
}

/** Reads the table headers and keys of `text`, line by line, skipping the inside of multi-line strings. */
function scanToml(text: string): TomlScan {
  const lines = text.split(/\r?\n/);
  const scan: TomlScan = {
    topLevel: new Map(),
    hooks: [],
    tables: new Map(),
    lineStarts: [],
    section: 'top',
    table: undefined,
  };
  let offset = 0;
  for (const content of lines) {
    scan.lineStarts.push(offset);
    // The separator's length does not matter for line lookups as long as it is counted consistently.
    offset += content.length + (text[offset + content.length] === '\r' ? 2 : 1);
  }
  let openString: string | undefined;
  for (const [index, content] of lines.entries()) {
    if (openString !== undefined) {
      if (countOf(content, openString) % 2 === 1) openString = undefined;
      continue;
    }
    const arrayTable = ARRAY_TABLE.exec(content);
    const header = arrayTable?.[1] ?? (arrayTable === null ? TABLE.exec(content)?.[1] : undefined);
    if (header !== undefined) {
      scanHeader(scan, header, arrayTable !== null, index + 1);
      continue;
    }
    scanKey(scan, content, index);
    for (const delimiter of ['"""', "'''"]) {
      if (countOf(content, delimiter) % 2 === 1) openString = delimiter;
    }
  }
  return scan;
}

/** A table header (`[name]` or `[[name]]`, `isArray`) on `line`: the lines after it belong to that table. */
function scanHeader(scan: TomlScan, header: string, isArray: boolean, line: number): void {
  const { hooks, topLevel } = scan;
  const path = header.split('.').map((part) => unquote(part.trim()));
  if (isArray && path.length === 1 && path[0] === 'hooks') {
    hooks.push({ line, keys: new Map() });
    scan.section = 'hook';
  } else if (path[0] === 'hooks' && hooks.length > 0 && scan.section === 'hook') {
    const key = path[1];
    const current = hooks[hooks.length - 1]!;
    if (key !== undefined && !current.keys.has(key)) current.keys.set(key, line);
  } else if (!isArray) {
    scan.section = 'table';
    const name = path.join('.');
    scan.table = scan.tables.get(name) ?? new Map();
    scan.tables.set(name, scan.table);
  } else {
    scan.section = 'other';
  }
  if (!topLevel.has(path[0]!)) topLevel.set(path[0]!, line);
}

/** A `key =` (or `key.sub =`) at the start of the `index`-th line, if any: its first line in the current table. */
function scanKey(scan: TomlScan, content: string, index: number): void {
  const line = index + 1;
  const match = KEY.exec(content);
  const key = match?.[1];
  if (key === undefined) return;
  const name = unquote(key);
  const { section, table } = scan;
  if (section === 'top' && !scan.topLevel.has(name)) scan.topLevel.set(name, line);
  if (section === 'hook') {
    const current = scan.hooks[scan.hooks.length - 1]!;
    if (!current.keys.has(name)) current.keys.set(name, line);
  }
  if (section === 'table' && table !== undefined && !table.has(name)) {
    table.set(name, { line, offset: scan.lineStarts[index]! + match![0].length });
  }
}

/**
 * Offsets where the elements of the array value starting at or after `start` (just after `key =`,
 * or the `=` itself) begin. Strings, comments and nested arrays or inline tables are skipped whole,
 * so a `]` or `,` inside a command does not end or split anything.
 */
function arrayItemOffsets(text: string, start: number): number[] {
  let position = start;
  while (position < text.length && (text[position] === ' ' || text[position] === '\t' || text[position] === '='))
    position++;
  if (text[position] !== '[') return [];
  const items: number[] = [];
  let depth = 0;
  let expecting = false;
  while (position < text.length) {
    const character = text[position]!;
    if (character === '#') {
      while (position < text.length && text[position] !== '\n') position++;
      continue;
    }
    if (character === ' ' || character === '\t' || character === '\r' || character === '\n') {
      position++;
      continue;
    }
    if (depth === 1 && expecting && character !== ']' && character !== ',') {
      items.push(position);
      expecting = false;
    }
    if (character === '"' || character === "'") {
      position = afterString(text, position);
      continue;
    }
    if (character === '[' || character === '{') {
      depth++;
      if (depth === 1) expecting = true;
    } else if (character === ']' || character === '}') {
      depth--;
      if (depth === 0) break;
    } else if (character === ',' && depth === 1) {
      expecting = true;
    }
    position++;
  }
  return items;
}

// The offset just after the TOML string that starts at `start` (basic or literal, one- or multi-line).
function afterString(text: string, start: number): number {
  const quote = text[start]!;
  const triple = text.startsWith(quote.repeat(3), start);
  const escapes = quote === '"';
  let position = start + (triple ? 3 : 1);
  while (position < text.length) {
    const character = text[position]!;
    if (escapes && character === '\\') {
      position += 2;
      continue;
    }
    if (!triple && character === '\n') return position;
    if (character === quote && (!triple || text.startsWith(quote.repeat(3), position))) {
      if (!triple) return position + 1;
      // Up to two more quotes may belong to the string's content (`""""x""""` is legal).
      let end = position + 3;
      while (end < text.length && text[end] === quote && end < position + 5) end++;
      return end;
    }
    position++;
  }
  return position;
}

function countOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function unquote(key: string): string {
  return /^(["']).*\1$/.test(key) ? key.slice(1, -1) : key;
}
