// Sizes as users write them in settings (`memory = "512m"`): a shared reading for every sandbox provider.
// Docker's units are binary (`--memory 512m` is 512 MiB), so `m` and `MiB` mean the same here; `MB` too,
// as in Docker, rather than surprising a user who wrote it with 4.6 % less memory.
const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
const SIZE = /^(\d+(?:\.\d+)?)\s*([bkmgt]?)(?:i?b)?$/i;

/**
 * Reads a byte size: a non-negative integer number of bytes, or a string like `"512m"`, `"1g"`,
 * `"256MiB"`, `"1.5g"`. Returns `undefined` for anything else.
 */
export function parseByteSize(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  const match = SIZE.exec(value.trim());
  if (match === null) return undefined;
  const bytes = Math.floor(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}
