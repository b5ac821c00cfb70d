import { ConfigError } from './config-error.ts';

/**
 * Thrown by a plugin factory whose settings are invalid (`dockerSandbox({ memory: 'lots' })`): every
 * problem at once, as the config issues Hookline reports everywhere, each naming its key under the
 * plugin's table. A host that read the settings from a file reports them at that table's line.
 */
export class SettingsError extends ConfigError {
  /**
   * @param factory the function that refused them, named as each issue's `file`: `dockerSandbox()`
   * @param table where the settings are written in a config, dotted: `sandbox.docker`
   * @param problems each refused key (`memory`, `mounts[1]`; empty for the whole object) and what is wrong
   */
  constructor(
    code: string,
    factory: string,
    table: string,
    problems: ReadonlyArray<{ readonly key: string; readonly message: string }>,
  ) {
    super(
      problems.map((problem) => ({ file: factory, setting: { table, key: problem.key }, message: problem.message })),
      {
        code,
        summary: `The settings of ${factory} have ${problems.length === 1 ? '1 problem' : `${problems.length} problems`}`,
      },
    );
    this.name = 'SettingsError';
  }
}
