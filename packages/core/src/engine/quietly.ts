/** Runs an observer's callback. Telemetry must never change an outcome: what an observer throws is dropped. */
export function quietly<T>(watch: () => T): T | undefined {
  try {
    return watch();
  } catch {
    return undefined;
  }
}
