import type { Runner } from '@hookline/core';
import { NodeFlagsRequired } from '../node-flags.ts';
import { FIRST_PARTY_RUNNERS } from '../plugins/first-party-packages.ts';
import { importFirstParty } from '../plugins/load-first-party.ts';
import { openScriptHost, scriptHostDisabled } from './open-script-host.ts';
import { remoteScriptRunner } from './remote-script-runner.ts';

const SCRIPT = FIRST_PARTY_RUNNERS['script']!;

/**
 * Whether the script host can stand in for a restart with `missing` flags: they are all the script
 * runner's, `script` hooks are the first-party runner's (not a plugin's), and the host is not off.
 */
export function scriptHostCovers(missing: readonly string[], used: ReadonlySet<string>, pluginTypes: ReadonlySet<string>, env: Readonly<Record<string, string | undefined>>): boolean {
  if (scriptHostDisabled(env) || !used.has('script') || pluginTypes.has('script')) return false;
  return missing.every((flag) => SCRIPT.nodeFlags?.includes(flag) === true && [...used].every((type) => type === 'script' || !(FIRST_PARTY_RUNNERS[type]?.nodeFlags ?? []).includes(flag)));
}

/**
 * `runners` with the first-party script runner's runs sent to this build's script host (started now
 * when none runs). When no host can serve, throws `NodeFlagsRequired`: the CLI then restarts itself
 * with the flags, as it does with the host off — before any hook ran and before stdin was read.
 */
export async function withScriptHost(runners: readonly Runner[], missing: readonly string[], options: { env: Readonly<Record<string, string | undefined>>; cwd: string; folders: readonly string[] }): Promise<Runner[]> {
  const index = runners.findIndex((runner) => runner.name === SCRIPT.package && runner.types['script'] !== undefined);
  const imported = index < 0 ? undefined : await importFirstParty(SCRIPT.package, options.folders);
  if (imported?.status !== 'loaded') throw new NodeFlagsRequired(missing);
  const open = () => openScriptHost(options.env, imported.url);
  const first = await open();
  if (!('pid' in first)) throw new NodeFlagsRequired(missing, first.tell ? `not using the script host: ${first.problem}; running script hooks by restarting Node with ${missing.join(' ')} instead` : undefined);
  return runners.map((runner, at) => (at === index ? remoteScriptRunner(runner, first, open, options.cwd) : runner));
}
