/**
 * What decides what runs outside a sandbox later, by its name relative to a folder a sandbox binds
 * writable: Hookline's own config, journal and plugins; the settings (and MCP servers) of the coding
 * agents Hookline is installed into, which run commands on the host; and version control hooks.
 * A provider that binds a host folder writable keeps each of these that exists read-only, and
 * reports (and moves aside) one a hook created. Paths use `/`; nested names (`.github/hooks`) are
 * one entry.
 */
export const PROTECTED_NAMES: readonly string[] = [
  // Hookline: the project config, the journal's folder, a coding agent's Hookline settings, installed plugins (and maybe the CLI itself).
  'hookline.toml',
  '.hookline',
  '.agent',
  'node_modules',
  // Coding agents: their settings name hooks, MCP servers and permissions, all run on the host.
  '.claude',
  '.gemini',
  '.codex',
  '.cursor',
  '.copilot',
  '.windsurf',
  '.github/hooks',
  '.mcp.json',
  // Version control: hooks, and config such as git's core.hooksPath, run on the next commit.
  '.git',
  '.hg',
  '.husky',
  '.githooks',
];

/**
 * The sandbox settings a host adds to a provider's own, in code: the absolute host paths that
 * decide what the host runs later beyond {@link PROTECTED_NAMES} — the config files it loaded and
 * the ones it would discover, its journal, the folders its plugins load from. A provider keeps those
 * that lie inside a writable bind read-only as it does the names, and those in `hiddenPaths`
 * unreadable wherever they lie inside a bind.
 */
export interface ProtectedPathsSettings {
  readonly protectedPaths?: readonly string[];
  /**
   * Absolute host paths no sandboxed hook may read: the user's secrets (`~/.ssh`, cloud and registry
   * credentials) and the journal key's folder, which a hook could use to seal forged journal entries.
   * A sandbox usually does not show them (bubblewrap gives hooks an empty home), but a bind can hold
   * one — a hook whose working directory is the home folder, `readable = ["~"]`, a docker mount of
   * it. A provider covers each one that exists inside any bind, readable or writable, with something
   * empty that cannot be read (an empty folder or file of mode 000), refuses a bind that lies inside
   * one, and fails a hook after which one is gone (moved through a folder above it). A link is
   * covered where it leads.
   */
  readonly hiddenPaths?: readonly string[];
  /**
   * Told, before a hook runs, the protected paths that do not exist and that it could create; the
   * function it returns is called once the exec was checked (and what the hook made moved aside). The
   * CLI uses it so that a Hookline process started meanwhile does not load such a file.
   */
  readonly onWatch?: (paths: readonly string[]) => () => void;
}
