import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { builtInPresets, HOOKLINE_CONFIG_FILES, type Preset, type PresetConfigFile } from '@hookline/core';
import { CliError } from '../cli-error.ts';

/** One config file the CLI will load, in layering order. */
export interface ConfigFile {
  /** Absolute path: plugins are resolved from its folder. */
  readonly path: string;
  /** How messages and issues name it: as the user typed it, or as discovered. */
  readonly label: string;
  /**
   * The preset the file is read in when it names none: `agent` for a coding agent's
   * `.agent/settings.toml`, which is written without a preset line.
   */
  readonly preset?: string;
}

/** The files to load, and — when none was found — where the CLI looked. */
export interface FoundConfigFiles {
  readonly files: readonly ConfigFile[];
  readonly searched: readonly string[];
}

/**
 * The `--config` files in the order given (each must exist), or by default the user layer
 * `$XDG_CONFIG_HOME/hookline/hookline.toml` (`~/.config` when unset) and then `./hookline.toml`,
 * each only if present. When neither exists, the first project file a preset reads in its host's own
 * place (`Preset.ownConfigFile`: a coding agent's `./.agent/settings.toml`) is the config, read as
 * that preset's; it is never layered under a Hookline file, whose preset it would contradict. A
 * `--preset` whose host keeps its own config files (`Preset.configFiles`) uses those instead: for
 * `claude`, `~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`.
 */
export function findConfigFiles(
  explicit: readonly string[] | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  preset?: Preset,
  presets: readonly Preset[] = builtInPresets.all,
): FoundConfigFiles {
  const own = ownConfigFiles(presets, cwd);
  if (explicit !== undefined && explicit.length > 0) {
    const files = explicit.map((label) => {
      const path = resolve(cwd, label);
      if (!isFile(path)) {
        const hint = existsSync(path)
          ? 'it is not a file'
          : 'check the path, or run `hookline init` to write a starter config';
        throw new CliError('HOOKLINE_CLI_CONFIG_NOT_FOUND', `config file ${label} not found (${hint}).`);
      }
      const implied = own.find((file) => path.endsWith(`${sep}${file.label}`));
      return { path, label, ...(implied === undefined ? {} : { preset: implied.preset }) };
    });
    return { files, searched: [] };
  }
  const candidates = (preset?.configFiles ?? HOOKLINE_CONFIG_FILES).map((file) => candidate(file, cwd, env));
  const files: ConfigFile[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (!isFile(candidate.path)) continue;
    // The working directory may be the user config folder itself; load that file once.
    const real = realpathSync(candidate.path);
    if (seen.has(real)) continue;
    seen.add(real);
    files.push({ path: candidate.path, label: candidate.label || candidate.path });
  }
  const found = files.length === 0 ? own.find((file) => isFile(file.path)) : undefined;
  if (found !== undefined) files.push(found);
  return { files, searched: [...candidates.map((candidate) => candidate.path), ...own.map((file) => file.path)] };
}

// Files under the project are labelled as the user would type them; the others by their full path.
function candidate(
  file: PresetConfigFile,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): { path: string; label: string } {
  const parts = file.path.split('/');
  if (file.under === 'project') return { path: join(cwd, ...parts), label: join(...parts) };
  return { path: join(file.under === 'home' ? env['HOME'] || homedir() : userConfigHome(env), ...parts), label: '' };
}

// The project files presets read in their hosts' own places, each with its preset.
function ownConfigFiles(presets: readonly Preset[], cwd: string): Array<ConfigFile & { readonly preset: string }> {
  return presets.flatMap((preset) => {
    const file = preset.ownConfigFile;
    if (file === undefined || file.under !== 'project') return [];
    const label = join(...file.path.split('/'));
    return [{ path: join(cwd, label), label, preset: preset.name }];
  });
}

// The XDG Base Directory spec says a relative $XDG_CONFIG_HOME is invalid and must be ignored.
function userConfigHome(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return xdg;
  return join(env['HOME'] || homedir(), '.config');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
