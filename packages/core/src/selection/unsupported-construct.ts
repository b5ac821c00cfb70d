const LOOKAROUND: ReadonlyArray<readonly [string, string]> = [
  ['(?<=', 'lookbehind'],
  ['(?<!', 'negative lookbehind'],
  ['(?=', 'lookahead'],
  ['(?!', 'negative lookahead'],
];

/**
 * Names the backtracking-only construct in a pattern RE2 refused — a backreference (`\1`, `\k<name>`)
 * or a lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) — so the error says why rather than only where RE2's
 * parser stopped; `undefined` when there is none. Escapes and character classes are skipped, where
 * these characters are literal.
 */
export function unsupportedConstruct(source: string): string | undefined {
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const character = source[index]!;
    if (character === '\\') {
      const next = source[index + 1] ?? '';
      if (!inClass && /^[1-9]$/.test(next))
        return `backreference \`\\${next}\` is not supported: RE2 matches in linear time, which rules out backreferences`;
      if (!inClass && next === 'k' && source[index + 2] === '<')
        return 'backreference `\\k<…>` is not supported: RE2 matches in linear time, which rules out backreferences';
      index++;
    } else if (inClass) {
      if (character === ']') inClass = false;
    } else if (character === '[') {
      inClass = true;
      // A `]` right after `[` or `[^` is a literal member, not the end of the class.
      if (source[index + 1] === '^') index++;
      if (source[index + 1] === ']') index++;
    } else if (character === '(') {
      const found = LOOKAROUND.find(([opening]) => source.startsWith(opening, index));
      if (found !== undefined)
        return `${found[1]} \`${found[0]}…)\` is not supported: RE2 matches in linear time, which rules out lookaround`;
    }
  }
  return undefined;
}
