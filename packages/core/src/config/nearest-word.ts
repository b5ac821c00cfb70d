/**
 * The candidate closest to `word` by edit distance, if it is close enough to be a likely typo
 * (`blockng` → `blocking`, `[[hook]]` → `hooks`): at most 2 edits, or 1 for words of 4 letters or
 * fewer, compared case-insensitively.
 */
export function nearestWord(word: string, candidates: Iterable<string>): string | undefined {
  const target = word.toLowerCase();
  const limit = target.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(target, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

// Optimal string alignment distance: Levenshtein plus adjacent transpositions ("blcoking").
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      const cell = Math.min(
        table[row - 1]![column]! + 1,
        table[row]![column - 1]! + 1,
        table[row - 1]![column - 1]! + cost,
      );
      const transposed = row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1];
      table[row]![column] = transposed ? Math.min(cell, table[row - 2]![column - 2]! + 1) : cell;
    }
  }
  return table[a.length]![b.length]!;
}
