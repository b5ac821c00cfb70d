// Tiny assertions shared by every package's Deno runtime tests: this machine reaches no JSR registry,
// so `jsr:@std/assert` is not an option.

/** Fails with `message` unless `condition` holds. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Fails unless `actual` and `expected` are structurally equal (compared as canonical JSON). */
export function assertEquals(actual: unknown, expected: unknown, message = 'values differ'): void {
  const left = canonical(actual);
  const right = canonical(expected);
  if (left !== right) throw new Error(`${message}\n  actual:   ${left}\n  expected: ${right}`);
}

/** Runs `work`, which must throw; returns what it threw. */
export function assertThrows(work: () => unknown, message = 'expected a throw'): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error(message);
}

// Sorted keys so that property order does not matter, as with a deep-equal.
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) =>
      inner !== null && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.fromEntries(
            Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          )
        : inner,
    ) ?? String(value)
  );
}
