/** First `count` characters of `text`, counting code points so emoji and CJK are not split. */
export function firstCharacters(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

/**
 * A hook's effective name: its `name`, else `"{event}:{identity}"`, where the runner type
 * supplies the identity (the first 20 characters of a command, an HTTP url, …).
 */
export function effectiveName(explicitName: string | undefined, event: string, identity: string): string {
  return explicitName ?? `${event}:${identity}`;
}
