import { realpathSync } from 'node:fs';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';

/**
 * Why the project of the working directory may not run its hook config (not trusted, or changed
 * since `hookline trust`), as an error whose message names the command; undefined when it may.
 */
export async function untrustedProject(io: CliIo): Promise<CliError | undefined> {
  const [serve, { cliServeBackend }] = await Promise.all([import('@hookline/serve'), import('./cli-serve-backend.ts')]);
  const project = realpathSync(io.cwd);
  const files = cliServeBackend(io, serve.jsonLog(io.stderr)).projectConfigFiles(project);
  const verdict = serve.trustVerdict(serve.servePaths(io.env).trustFile, project, files);
  if (verdict.trusted || verdict.hash === serve.EMPTY_CONFIG_HASH) return undefined;
  const why = verdict.reason === 'changed' ? 'has changed since it was trusted' : 'has not been trusted';
  return new CliError(
    'HOOKLINE_CLI_UNTRUSTED',
    `the hook configuration of ${project} ${why}, so none of its hooks ran; review it, then run \`hookline trust\` in ${project}`,
  );
}
