/** The `code` of a Node system error (`ENOENT`, `ELOOP`…), if it has one. */
export function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
