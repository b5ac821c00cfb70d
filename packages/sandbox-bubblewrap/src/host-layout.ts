import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import process from 'node:process';

/**
 * The system directories a sandbox sees, read-only: programs, libraries and configuration. Where a
 * distribution links one into /usr (`/bin -> usr/bin`), the link is recreated instead of bound.
 */
export const SYSTEM_DIRECTORIES: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
];

/**
 * Files under /etc that hold secrets readable only by root. When Hookline runs as root, bwrap starts
 * as nobody, so no file only root may read is readable inside anyway; these well-known ones are
 * covered with empty ones as well, a second line should bwrap ever run as root.
 */
const ROOT_SECRET_FILES: readonly string[] = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/sudoers',
  '/etc/security/opasswd',
];
const ROOT_SECRET_DIRECTORIES: readonly string[] = ['/etc/sudoers.d', '/etc/ssl/private'];

/** The bwrap arguments that lay out the system part of every sandbox, read once per provider. */
export function systemArguments(): string[] {
  const args: string[] = [];
  for (const directory of SYSTEM_DIRECTORIES) {
    let entry;
    try {
      entry = lstatSync(directory);
    } catch {
      continue;
    }
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(directory), directory);
    else if (entry.isDirectory()) args.push('--ro-bind', directory, directory);
  }
  if (process.getuid?.() === 0) {
    for (const file of [...ROOT_SECRET_FILES, ...sshHostKeys()])
      if (existsSync(file)) args.push('--ro-bind', '/dev/null', file);
    for (const directory of ROOT_SECRET_DIRECTORIES) if (existsSync(directory)) args.push('--tmpfs', directory);
  }
  return args;
}

function sshHostKeys(): string[] {
  try {
    return readdirSync('/etc/ssh')
      .filter((name) => name.startsWith('ssh_host_') && name.endsWith('_key'))
      .map((name) => `/etc/ssh/${name}`);
  } catch {
    return [];
  }
}

// Mount points bwrap makes itself; nothing may be bound over or around them.
const SANDBOX_MOUNTS: readonly string[] = ['/proc', '/dev', '/tmp'];

/** Whether binding `path` would cover the system: it is `/`, a system directory, or contains one. */
export function coversSystem(path: string): boolean {
  return (
    path === '/' ||
    [...SYSTEM_DIRECTORIES, ...SANDBOX_MOUNTS].some((system) => system === path || system.startsWith(`${path}/`))
  );
}

/** Whether `path` is, contains, or lies inside a system directory or one of bwrap's own mounts. */
export function overlapsSystem(path: string): boolean {
  return (
    coversSystem(path) || [...SYSTEM_DIRECTORIES, ...SANDBOX_MOUNTS].some((system) => path.startsWith(`${system}/`))
  );
}
