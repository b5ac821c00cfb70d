// What a preset says about its host's files and answers: shared by the preset and its agent adapter.

/**
 * The merged outcome as the host expects it back, in the dialect's own wire format: what a process
 * standing in for the host's hook command exits with and prints (`claude`: exit 0 and a JSON object
 * with `hookSpecificOutput.permissionDecision` and the like on stdout).
 */
export interface WireAnswer {
  readonly exitCode: number;
  /** Printed on stdout as is; nothing when absent. */
  readonly stdout?: string;
  /** Printed on stderr as is; nothing when absent. */
  readonly stderr?: string;
}

/**
 * A config file a command line loads when it is given none: `path` (with `/` separators) under the
 * user's home folder, the user config folder (`$XDG_CONFIG_HOME`, else `~/.config`), or the project
 * (the working directory).
 */
export interface PresetConfigFile {
  readonly under: 'home' | 'user-config' | 'project';
  readonly path: string;
}
