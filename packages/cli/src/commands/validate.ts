import { ConfigError, createHookEngine, formatConfigIssue, type ConfigIssue } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { validate } from '../command-specs.ts';
import { loadSetup } from '../config/load-setup.ts';
import { dryRunJournal } from '../journal/dry-run-journal.ts';
import { createStyle } from '../output/style.ts';
import { listOf, printWarnings } from '../print-warnings.ts';
import { loadSandbox } from '../plugins/load-sandbox.ts';
import { terminalText } from '../output/terminal-text.ts';

/** `hookline validate`: every config problem at once, with file and line. */
export const validateCommand = {
  async run({ values }, io) {
    const json = values.json === true;
    let result: { files: string[]; hooks: number; warnings: readonly string[] } | { issues: readonly ConfigIssue[] };
    try {
      const setup = await loadSetup({
        configFiles: values.config,
        preset: values.preset,
        cwd: io.cwd,
        env: io.env,
        allRunners: true,
      });
      if (setup.files.length === 0) {
        throw new CliError(
          'HOOKLINE_CLI_CONFIG_NOT_FOUND',
          `no config file to validate: looked for ${listOf(setup.searched)}; pass --config FILE, or run \`hookline init\`.`,
        );
      }
      // The same wiring checks emit makes: the sandbox provider is installed and fits the hooks.
      // Durable hooks need a journal, but validating must not open (or create) the journal file.
      const sandbox = await loadSandbox(
        setup.config,
        setup.runners,
        setup.pluginSandboxes,
        setup.folders,
        setup.sources,
      );
      await createHookEngine({
        config: setup.config,
        runners: setup.runners,
        presets: setup.presets.all,
        journal: dryRunJournal('validate'),
        journalKey: false,
        ...(sandbox === undefined ? {} : { sandbox }),
      }).close();
      // A preset that keeps valid hooks running (claude, agent) loads past invalid ones; they are still problems.
      const problems = setup.config.problems ?? [];
      result =
        problems.length > 0
          ? { issues: problems }
          : {
              files: setup.files.map((file) => file.file.label),
              hooks: setup.config.hooks.length,
              warnings: setup.config.warnings,
            };
    } catch (error) {
      // isInstance, not instanceof: a plugin may bring its own copy of @hookline/core.
      if (ConfigError.isInstance(error)) result = { issues: error.issues };
      else throw error;
    }
    if ('issues' in result) {
      if (json) {
        io.stdout.write(`${JSON.stringify({ valid: false, issues: result.issues })}\n`);
      } else {
        for (const issue of result.issues) io.stderr.write(`${terminalText(formatConfigIssue(issue))}\n`);
      }
      return 1;
    }
    if (json) {
      io.stdout.write(
        `${JSON.stringify({ valid: true, files: result.files, hooks: result.hooks, warnings: result.warnings })}\n`,
      );
    } else {
      printWarnings(result.warnings, io);
      const style = createStyle(io.stdout, io.env);
      if (io.quiet !== true)
        io.stdout.write(
          `${style.paint('green', '✓')} valid: ${result.hooks} ${result.hooks === 1 ? 'hook' : 'hooks'} in ${terminalText(result.files.join(', '))}\n`,
        );
    }
    return 0;
  },
} satisfies CommandModule<typeof validate>;
