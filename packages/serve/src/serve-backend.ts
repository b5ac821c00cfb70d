/**
 * What one request asks: the hooks of an agent's event (`/hooks/<agent>/<event>`, the payload the
 * agent sends, answered as `hookline bridge <agent>` answers), or a plain emit (`/emit/<event>`, a
 * context object, answered with the outcome JSON `hookline emit --json` prints).
 */
export type ServeRoute =
  | {
      readonly kind: 'bridge';
      readonly agent: string;
      /** The event named in the path; '' when it names none (the payload says which, except Copilot's: its entry does). */
      readonly event: string;
      /** `?preset=NAME`: read the config as that preset, as `hookline bridge --preset NAME` does. */
      readonly preset?: string;
    }
  | { readonly kind: 'emit'; readonly event: string; readonly preset?: string };

/** An answer as a hook command gives it: what it prints and how it exits. */
export interface HookAnswer {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A loaded, validated config and the engine that runs its hooks. */
export interface LoadedConfig {
  /**
   * Runs the route's hooks for `payload` and answers. `notice` (a reload that failed, so this is the
   * last good config) goes into the answer where the agent shows it (a system message, a warning).
   */
  answer(
    route: ServeRoute,
    payload: Readonly<Record<string, unknown>>,
    notice: string | undefined,
  ): Promise<HookAnswer>;
  /** Waits for the hooks still running (non-blocking ones too), then closes the engine. */
  close(): Promise<void>;
}

/**
 * What the daemon needs of the program that embeds it (the `hookline` CLI): how configs are found
 * and loaded, how hooks run, and how each agent is answered. The daemon itself knows only files,
 * trust, reloads, sockets and life cycle; keeping these behind an interface lets it sit below the CLI.
 */
export interface ServeBackend {
  /** Which config a route reads; routes of one project with the same profile share one loaded config. */
  profileOf(route: ServeRoute): string;
  /** Every file a config of `profile` in `projectDir` would be read from, existing or not (watched for changes). */
  configCandidates(projectDir: string, profile: string): readonly string[];
  /**
   * The hook config files that belong to the project (every profile's, existing or not): what
   * `hookline trust` hashes. Files outside the project (the user layer) need no trust.
   */
  projectConfigFiles(projectDir: string): readonly string[];
  /** Loads and validates the config: throws (a `ConfigError`, say) when it cannot be used. */
  load(projectDir: string, profile: string): Promise<LoadedConfig>;
  /**
   * The answer when nothing may run (an untrusted project, a config with no good version, a bad
   * request): a guard event fails closed with `reason`, any other event goes on, showing it.
   */
  refuse(route: ServeRoute, payload: Readonly<Record<string, unknown>>, reason: string): HookAnswer;
}
