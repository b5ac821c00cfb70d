/** `4 ms`, `38 ms`, `1.2 s`: short and stable widths for the summary table and the live line. */
export function formatDuration(milliseconds: number | undefined): string {
  if (milliseconds === undefined) return '—';
  if (milliseconds < 1_000) return `${Math.round(milliseconds)} ms`;
  return `${(milliseconds / 1_000).toFixed(1)} s`;
}
