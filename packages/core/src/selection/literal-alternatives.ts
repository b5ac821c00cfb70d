/** One alternative of a literal pattern: its text, and whether `^` or `$` anchors it. */
export interface LiteralAlternative {
  readonly text: string;
  readonly start: boolean;
  readonly end: boolean;
}

// Characters with a meaning in RE2 syntax; anything else stands for itself.
const SPECIAL = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
// RE2 reads a backslash before ASCII punctuation as that character, literally.
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/**
 * The alternatives of a pattern made only of literals, `|` and anchors, or `undefined` for any
 * other pattern. Accepted forms: `deploy`, `^Bash$`, `^build|^test|lint$`, `^(build|test)$` and
 * `^(?:build|test)$`, with `\`-escaped punctuation (`^mcp\.tool$`). Such a pattern needs no regex
 * engine: string tests answer it as RE2 would, in linear time.
 */
export function literalAlternatives(source: string): LiteralAlternative[] | undefined {
  const grouped = /^(\^?)\((?:\?:)?(.*)\)(\$?)$/s.exec(source);
  if (grouped !== null) {
    const texts = splitLiterals(grouped[2]!);
    return texts?.map((text) => ({ text, start: grouped[1] === '^', end: grouped[3] === '$' }));
  }
  const alternatives: LiteralAlternative[] = [];
  for (const written of splitAlternatives(source)) {
    const start = written.startsWith('^');
    const end = written.endsWith('$') && !written.endsWith('\\$') && written.length > (start ? 1 : 0);
    const texts = splitLiterals(written.slice(start ? 1 : 0, end ? -1 : undefined));
    if (texts === undefined || texts.length !== 1) return undefined;
    alternatives.push({ text: texts[0]!, start, end });
  }
  return alternatives;
}

/** `source` split at its unescaped `|`s, escapes kept as written. */
function splitAlternatives(source: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < source.length; index++) {
    const character = source[index]!;
    if (character === '\\' && index + 1 < source.length) {
      current += character + source[++index]!;
    } else if (character === '|') {
      parts.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  parts.push(current);
  return parts;
}

/** The literal texts of `|`-separated literals, escapes resolved; `undefined` if anything is not literal. */
function splitLiterals(source: string): string[] | undefined {
  const texts: string[] = [];
  let current = '';
  for (let index = 0; index < source.length; index++) {
    const character = source[index]!;
    if (character === '\\') {
      const next = source[index + 1];
      if (next === undefined || !PUNCTUATION.test(next)) return undefined;
      current += next;
      index++;
    } else if (character === '|') {
      texts.push(current);
      current = '';
    } else if (SPECIAL.has(character)) {
      return undefined;
    } else {
      current += character;
    }
  }
  texts.push(current);
  return texts;
}
