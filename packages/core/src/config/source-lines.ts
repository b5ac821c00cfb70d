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
}

const ARRAY_TABLE = /^\s*\[\[\s*([^\]]*?)\s*\]\]/;
const TABLE = /^\s*\[\s*([^\]]*?)\s*\]/;
const KEY = /^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*[.=]/;

/** Scans `text` once; hooks written as an inline array (`hooks = [{…}]`) all map to that line. */
export function locateSourceLines(text: string): SourceLines {
  const topLevel = new Map<string, number>();
  const hooks: Array<{ line: number; keys: Map<string, number> }> = [];
  let section: 'top' | 'hook' | 'other' = 'top';
  let openString: string | undefined;
  const lines = text.split(/\r?\n/);
  for (const [offset, content] of lines.entries()) {
    const line = offset + 1;
    if (openString !== undefined) {
      if (countOf(content, openString) % 2 === 1) openString = undefined;
      continue;
    }
    const arrayTable = ARRAY_TABLE.exec(content);
    const table = arrayTable === null ? TABLE.exec(content) : null;
    const header = arrayTable?.[1] ?? table?.[1];
    if (header !== undefined) {
      const path = header.split('.').map((part) => unquote(part.trim()));
      if (arrayTable !== null && path.length === 1 && path[0] === 'hooks') {
        hooks.push({ line, keys: new Map() });
        section = 'hook';
      } else if (path[0] === 'hooks' && hooks.length > 0 && section === 'hook') {
        const key = path[1];
        const current = hooks[hooks.length - 1]!;
        if (key !== undefined && !current.keys.has(key)) current.keys.set(key, line);
      } else {
        section = 'other';
      }
      if (!topLevel.has(path[0]!)) topLevel.set(path[0]!, line);
      continue;
    }
    const key = KEY.exec(content)?.[1];
    if (key !== undefined) {
      const name = unquote(key);
      if (section === 'top' && !topLevel.has(name)) topLevel.set(name, line);
      if (section === 'hook') {
        const current = hooks[hooks.length - 1]!;
        if (!current.keys.has(name)) current.keys.set(name, line);
      }
    }
    for (const delimiter of ['"""', "'''"]) {
      if (countOf(content, delimiter) % 2 === 1) openString = delimiter;
    }
  }
  const inlineHooksLine = hooks.length === 0 ? topLevel.get('hooks') : undefined;
  return {
    topLevel: (key) => topLevel.get(key),
    hook: (index) => hooks[index]?.line ?? inlineHooksLine,
    hookKey: (index, key) => hooks[index]?.keys.get(key) ?? hooks[index]?.line ?? inlineHooksLine,
  };
}

function countOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function unquote(key: string): string {
  return /^(["']).*\1$/.test(key) ? key.slice(1, -1) : key;
}
