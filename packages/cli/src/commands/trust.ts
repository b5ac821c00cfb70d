import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import type { CommandModule } from '../command.ts';
import type { trust } from '../command-specs.ts';

/** `hookline trust [DIR]`: records (or, with --revoke, forgets) the project's hook config hash. */
export const trustCommand = {
  async run({ values, positionals: { DIR } }, io) {
    const dir = resolve(io.cwd, DIR ?? '.');
    if (!existsSync(dir))
      throw new CliError('HOOKLINE_CLI_USAGE', `${dir} does not exist; run \`hookline trust\` in the project folder.`);
    const project = realpathSync(dir);
    const [serve, { cliServeBackend }] = await Promise.all([
      import('@hookline/serve'),
      import('../serve/cli-serve-backend.ts'),
    ]);
    const { trustFile } = serve.servePaths(io.env);
    if (values.revoke === true) {
      const revoked = serve.revokeTrust(trustFile, project);
      io.stdout.write(
        revoked ? `hookline: ${project} is no longer trusted\n` : `hookline: ${project} was not trusted\n`,
      );
      return 0;
    }
    const record = serve.recordTrust(
      trustFile,
      project,
      cliServeBackend(io, serve.jsonLog(io.stderr)).projectConfigFiles(project),
    );
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ project, ...record })}\n`);
    } else if (record.files.length === 0) {
      io.stdout.write(
        `hookline: ${project} has no hook config of its own; recorded as trusted (a config added later needs trust again)\n`,
      );
    } else {
      io.stdout.write(
        `hookline: trusted the hook config of ${project}: ${record.files.join(', ')} (sha256 ${record.hash.slice(0, 12)}…)\n`,
      );
    }
    return 0;
  },
} satisfies CommandModule<typeof trust>;
