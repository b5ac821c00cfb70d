/** Whether `path` is `root` or lies inside it: both absolute, normalized, without a trailing `/`. */
export function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
}
