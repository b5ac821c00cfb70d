import { basename, isAbsolute, resolve } from 'node:path';
import process from 'node:process';
import { defineSandboxProvider, sandboxEnvironment, type ExecResult, type SandboxProvider, type SandboxSession } from '@hookline/core/plugin';
import { CommandStartError, createProcessSession } from '@hookline/runner-command';
import { bubblewrapSettingsTable, type BubblewrapSettingsData } from './bubblewrap-settings.ts';
import { bwrapArguments, SANDBOX_UID, type SandboxLayout } from './bwrap-arguments.ts';
import { findCgroupSupport, openHookCgroup, type CgroupSupport, type HookCgroup } from './cgroup-limits.ts';
import { coversSystem, overlapsSystem, systemArguments } from './host-layout.ts';
import { probeBubblewrap } from './probe-bubblewrap.ts';
import { resolveBubblewrapSettings } from './resolve-bubblewrap-settings.ts';
import { stopSandbox } from './stop-sandbox.ts';

/** Settings of {@link bubblewrapSandbox}: the data of `[sandbox.bubblewrap]` plus, in code, the host's side. */
export interface BubblewrapSandboxSettings extends BubblewrapSettingsData {
  /** The environment whose allow-listed variables sandboxed processes get; default `process.env`, read at every exec. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Where the host keeps context files before they are bound into a sandbox; see runner-command's `localSandbox`. */
  readonly temporaryDirectory?: string;
  /** Told what the sandbox cannot do on this host (no cgroup limits), once per provider. */
  readonly onWarning?: (message: string) => void;
}

/**
 * The `bubblewrap` sandbox provider: every exec of a run's session starts `bwrap`, which runs the
 * command in fresh user, pid, ipc, uts, cgroup and (by default) network namespaces, as uid/gid
 * 65534, with its own `/proc`, a minimal `/dev`, a private `/tmp`, the system directories read-only
 * and the working directory as the only writable place (plus `writable`). bwrap starts with the
 * already-allow-listed environment, so the namespace's pid 1 holds no host secret either. The
 * hook's end or its timeout ends the whole pid namespace. Settings are validated here; nothing
 * runs until a run opens its session, which first checks that bwrap works on this host.
 *
 * ```ts
 * const engine = createHookEngine({ config, runners, sandbox: bubblewrapSandbox({ writable: ['./build'] }) });
 * ```
 */
export function bubblewrapSandbox(settings: BubblewrapSandboxSettings = {}): SandboxProvider {
  const { environment: source, temporaryDirectory, onWarning, ...data } = settings;
  const resolved = resolveBubblewrapSettings(data);
  const environment = (): Record<string, string> => ({ ...sandboxEnvironment(source ?? process.env), TMPDIR: '/tmp' });
  let host: Promise<{ readonly system: readonly string[]; readonly cgroups: CgroupSupport }> | undefined;
  let limitsWarned = false;

  // Once per provider, and again after a failure: lay out the host and see that bwrap works with it.
  const prepare = (): Promise<{ readonly system: readonly string[]; readonly cgroups: CgroupSupport }> => {
    host ??= (async () => {
      const system = systemArguments();
      const layout: SandboxLayout = { system, network: resolved.network, writable: resolved.writable, readable: resolved.readable, files: new Map() };
      await probeBubblewrap(resolved.bwrap, bwrapArguments(layout), environment());
      return { system, cgroups: findCgroupSupport() };
    })().catch((error: unknown) => {
      host = undefined;
      throw error;
    });
    return host;
  };

  // Said once per provider, in the report of the first hook that ends by itself (a timed-out hook's
  // report is made by the engine at the deadline, and would swallow it), and to onWarning.
  const limitsNote = (cgroups: CgroupSupport, result: ExecResult | undefined): string[] => {
    if (cgroups.usable || limitsWarned || result === undefined || result.aborted) return [];
    limitsWarned = true;
    const message = `the bubblewrap sandbox cannot limit pids and memory on this host: ${cgroups.reason}. Its processes still end with the hook and its timeout.`;
    onWarning?.(message);
    return [message];
  };

  return defineSandboxProvider({
    name: 'bubblewrap',
    async doOpen(runId, signal): Promise<SandboxSession> {
      signal.throwIfAborted();
      const { system, cgroups } = await prepare();
      return createProcessSession({
        runId,
        provider: 'bubblewrap',
        environment,
        killGraceMs: resolved.killGraceMs,
        maxOutputBytes: resolved.maxOutputBytes,
        ...(temporaryDirectory === undefined ? {} : { temporaryDirectory }),
        details: { network: resolved.network, uid: SANDBOX_UID },
        // Context files are bound into the sandbox's private /tmp under their own (random) names.
        visiblePath: (hostPath) => `/tmp/${basename(hostPath)}`,
        async launch(request, files) {
          const cwd = resolve(request.cwd ?? process.cwd());
          if (coversSystem(cwd)) {
            throw new CommandStartError(`the bubblewrap sandbox does not run hooks in ${cwd}: it would be bound writable over the system directories; give the context a cwd of its own (a project folder)`);
          }
          // HOME passes the allow-list unchanged: read it alone rather than build the whole environment twice per exec.
          const home = (source ?? process.env)['HOME'];
          const layout: SandboxLayout = {
            system,
            network: resolved.network,
            cwd,
            writable: resolved.writable,
            readable: resolved.readable,
            ...(home !== undefined && isAbsolute(home) && !overlapsSystem(resolve(home)) ? { home: resolve(home) } : {}),
            files,
          };
          const inner = typeof request.command === 'string' ? [request.shell ?? 'sh', '-c', request.command] : [...request.command];
          const sandboxed = [resolved.bwrap, ...bwrapArguments(layout), '--', ...inner];
          let cgroup: HookCgroup | undefined;
          if (cgroups.usable) cgroup = openHookCgroup(cgroups.parent, resolved);
          return {
            // A shell joins the hook's cgroup before it becomes bwrap, so no process of the sandbox starts outside it.
            request: { ...request, cwd, command: cgroup === undefined ? sandboxed : ['sh', '-c', 'echo $$ > "$0" && exec "$@"', cgroup.procs, ...sandboxed] },
            terminate: stopSandbox,
            async finish(result: ExecResult | undefined) {
              const hits = cgroup?.close() ?? [];
              // A stopped hook's report is already made: what its limits stopped goes to onWarning.
              if (result?.aborted === true) for (const hit of hits) onWarning?.(hit);
              const notes = [...hits, ...limitsNote(cgroups, result)];
              if (result === undefined || notes.length === 0) return result;
              return { ...result, warnings: [...(result.warnings ?? []), ...notes] };
            },
          };
        },
      });
    },
  });
}

/** `[sandbox.bubblewrap]`: the host validates it while loading the config and passes the result here. */
bubblewrapSandbox.settingsTable = bubblewrapSettingsTable;
