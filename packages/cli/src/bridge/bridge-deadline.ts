/** A timer that calls `expired` once after `ms`, unless cleared; it never keeps the process alive. */
export function startDeadline(ms: number, expired: () => void): () => void {
  const timer = setTimeout(expired, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
