import { basename, isAbsolute, resolve } from 'node:path';
import process from 'node:process';
import {
  defineSandboxProvider,
  sandboxEnvironment,
  type ExecResult,
  type ProtectedPathsSettings,
  type SandboxProvider,
  type SandboxSession,
} from '@hookline/core/plugin';
import { createProcessSession } from '@hookline/runner-command';
import { describeHiddenPathChanges, describeProtectedPathChanges } from '@hookline/runner-command/protected-paths';
import { BubblewrapPathError } from './bubblewrap-path-error.ts';
import { BubblewrapHiddenPathError } from './bubblewrap-hidden-path-error.ts';
import { BubblewrapProtectedPathError } from './bubblewrap-protected-path-error.ts';
import { bubblewrapSettingsTable, type BubblewrapSettingsData } from './bubblewrap-settings.ts';
import { bwrapArguments, SANDBOX_UID, type SandboxLayout } from './bwrap-arguments.ts';
import { findCgroupSupport, openHookCgroup, type CgroupSupport, type HookCgroup } from './cgroup-limits.ts';
import { overlapsSystem, systemArguments } from './host-layout.ts';
import { openBinds } from './open-binds.ts';
import { planBinds, STAGE_FAILED, STAGE_SCRIPT, VERIFY_SCRIPT, verifyArguments, type BindPlan } from './plan-binds.ts';
import { probeBubblewrap } from './probe-bubblewrap.ts';
import { resolveBubblewrapSettings } from './resolve-bubblewrap-settings.ts';
import { stagingFolder, type StagingFolder } from './staging-folder.ts';
import { stopSandbox } from './stop-sandbox.ts';

/** Settings of {@link bubblewrapSandbox}: the data of `[sandbox.bubblewrap]` plus, in code, the host's side. */
export interface BubblewrapSandboxSettings extends BubblewrapSettingsData, ProtectedPathsSettings {
  /** The environment whose allow-listed variables sandboxed processes get; default `process.env`, read at every exec. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Where the host keeps context files before they are copied into a sandbox; see runner-command's `localSandbox`. */
  readonly temporaryDirectory?: string;
  /** Told what the sandbox cannot do on this host (no cgroup limits), and what a stopped hook changed that it must not, once each. */
  readonly onWarning?: (message: string) => void;
}

/** The identity bwrap starts as when Hookline runs as root: `nobody` outside too, so root's own files stay unreadable. */
const UNPRIVILEGED = { uid: SANDBOX_UID, gid: SANDBOX_UID } as const;

/**
 * The `bubblewrap` sandbox provider: every exec of a run's session starts `bwrap`, which runs the
 * command in fresh user, pid, ipc, uts, cgroup and (by default) network namespaces, as uid/gid
 * 65534, with its own `/proc`, a minimal `/dev`, a private `/tmp`, the system directories read-only
 * and the working directory as the only writable place (plus `writable`). When Hookline runs as
 * root, bwrap itself starts as uid/gid 65534 (setpriv, no supplementary groups): the sandbox's user
 * is `nobody` on the host too, so a file only root may read stays unreadable wherever it is, and a
 * hook writes only where `nobody` may. Every bound path is opened, resolved and checked first; bwrap
 * binds that very object — from the open descriptor (`--bind-fd`), or as root from a private staging
 * mount where it was verified by device and inode — so a link cannot point a bind at `/` or a system
 * folder.
 * What decides what runs outside later (core's `PROTECTED_NAMES` under each writable folder, and
 * `protectedPaths`) is bound read-only on top; one a hook created is moved aside and fails the hook.
 * What no hook may read (`hiddenPaths`: the user's secrets, the journal key's folder) is covered,
 * inside any bind, with an empty folder or file of mode 000.
 * bwrap starts with the already-allow-listed environment, so the namespace's pid 1 holds no host
 * secret either. The hook's end or its timeout ends the whole pid namespace. Settings are validated
 * here; nothing runs until a run opens its session, which first checks that bwrap works on this host.
 *
 * ```ts
 * const engine = createHookEngine({ config, runners, sandbox: bubblewrapSandbox({ writable: ['./build'] }) });
 * ```
 */
export function bubblewrapSandbox(settings: BubblewrapSandboxSettings = {}): SandboxProvider {
  const {
    environment: source,
    temporaryDirectory,
    onWarning,
    protectedPaths = [],
    hiddenPaths = [],
    onWatch,
    ...data
  } = settings;
  const resolved = resolveBubblewrapSettings(data);
  const environment = (): Record<string, string> => ({ ...sandboxEnvironment(source ?? process.env), TMPDIR: '/tmp' });
  // As root, bwrap's own user namespace would map the sandbox's user to root outside: start it as nobody instead.
  const user = process.getuid?.() === 0 ? UNPRIVILEGED : undefined;
  let host: Promise<HostLayout> | undefined;
  let limitsWarned = false;

  // Once per provider, and again after a failure: lay out the host and see that bwrap works with it.
  const prepare = (): Promise<HostLayout> => {
    host ??= (async () => {
      const system = systemArguments();
      const layout: SandboxLayout = {
        system,
        network: resolved.network,
        readable: [],
        writable: [],
        protected: [],
        files: new Map(),
      };
      await probeBubblewrap(resolved.bwrap, bwrapArguments(layout), environment(), user);
      return { system, cgroups: findCgroupSupport(), ...(user === undefined ? {} : { staging: stagingFolder() }) };
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
      const { system, cgroups, staging } = await prepare();
      return createProcessSession({
        runId,
        provider: 'bubblewrap',
        environment,
        killGraceMs: resolved.killGraceMs,
        maxOutputBytes: resolved.maxOutputBytes,
        ...(temporaryDirectory === undefined ? {} : { temporaryDirectory }),
        details: { network: resolved.network, uid: SANDBOX_UID },
        // Context files are copied into the sandbox's private /tmp under their own (random) names.
        visiblePath: (hostPath) => `/tmp/${basename(hostPath)}`,
        async launch(request, files) {
          const binds = openBinds({
            cwd: resolve(request.cwd ?? process.cwd()),
            writable: resolved.writable,
            readable: resolved.readable,
            protectedPaths,
            hiddenPaths,
            files,
            ...(user === undefined ? {} : { user }),
          });
          let cgroup: HookCgroup | undefined;
          let withdraw: (() => void) | undefined;
          let launched: string[];
          let plan: BindPlan;
          try {
            if (cgroups.usable) cgroup = openHookCgroup(cgroups.parent, resolved);
            // A Hookline process started while the hook runs must not load a protected file it may be writing.
            if (binds.guard.absent.length > 0) withdraw = onWatch?.(binds.guard.absent);
            plan = planBinds(
              binds,
              user === undefined || staging === undefined ? undefined : { user, stage: () => staging.current() },
            );
            // HOME passes the allow-list unchanged: read it alone rather than build the whole environment twice per exec.
            const home = (source ?? process.env)['HOME'];
            const layout: SandboxLayout = {
              system,
              network: resolved.network,
              cwd: binds.cwd,
              readable: plan.readable,
              writable: plan.writable,
              protected: plan.protected,
              hidden: plan.hidden,
              ...(home !== undefined && isAbsolute(home) && !overlapsSystem(resolve(home))
                ? { home: resolve(home) }
                : {}),
              files: plan.files,
            };
            const command =
              typeof request.command === 'string'
                ? [request.shell ?? 'sh', '-c', request.command]
                : [...request.command];
            // The sandbox checks every bind by device and inode before the hook starts.
            const inner = ['sh', '-c', VERIFY_SCRIPT, 'hookline-verify', ...verifyArguments(binds), ...command];
            launched = launchCommand(
              [resolved.bwrap, ...bwrapArguments(layout), '--', ...inner],
              cgroup,
              user,
              plan.staging.length === 0 || staging === undefined
                ? undefined
                : { stage: staging.current(), staging: plan.staging },
            );
          } catch (error) {
            binds.close();
            cgroup?.close();
            withdraw?.();
            throw error;
          }
          return {
            // bwrap's cwd on the host is irrelevant (it chdirs inside); `/` is one every identity may enter.
            request: { ...request, cwd: '/', command: launched },
            terminate: stopSandbox,
            passFds: plan.passFds,
            async finish(result: ExecResult | undefined) {
              binds.close();
              const hits = cgroup?.close() ?? [];
              const changes = binds.guard.settle();
              const moved = binds.hiddenGuard.settle();
              withdraw?.();
              // A stopped hook's report is already made: what its limits stopped goes to onWarning.
              if (result?.aborted === true) for (const hit of hits) onWarning?.(hit);
              if (moved.length > 0) {
                const message = describeHiddenPathChanges('bubblewrap', moved);
                if (result === undefined || result.aborted) onWarning?.(message);
                throw new BubblewrapHiddenPathError(message);
              }
              if (changes.length > 0) {
                const message = describeProtectedPathChanges('bubblewrap', changes);
                if (result === undefined || result.aborted) onWarning?.(message);
                throw new BubblewrapProtectedPathError(message);
              }
              if (result?.exitCode === STAGE_FAILED) {
                const said = new TextDecoder().decode(result.stderr).trim();
                if (said.startsWith('hookline-stage: '))
                  throw new BubblewrapPathError(
                    `the bubblewrap sandbox could not stage its binds (${said.slice('hookline-stage: '.length)}); the hook did not run.`,
                  );
                if (said.startsWith('hookline-verify: '))
                  throw new BubblewrapPathError(
                    `the bubblewrap sandbox found ${said.slice('hookline-verify: '.length)}.`,
                  );
              }
              const notes = [...hits, ...limitsNote(cgroups, result)];
              if (result === undefined || notes.length === 0) return result;
              return { ...result, warnings: [...(result.warnings ?? []), ...notes] };
            },
          };
        },
      });
    },
    async doClose() {
      const made = await host?.catch(() => undefined);
      made?.staging?.remove();
    },
  });
}

interface HostLayout {
  readonly system: readonly string[];
  readonly cgroups: CgroupSupport;
  /** As root: the empty folder each exec's private mount namespace stages its binds over. */
  readonly staging?: StagingFolder;
}

/**
 * What to spawn for `sandboxed` (bwrap and its arguments). A shell joins the hook's cgroup before it
 * becomes bwrap, so no process of the sandbox starts outside it. As root (`user`), bwrap becomes
 * nobody through setpriv (util-linux), which drops the supplementary groups (the kernel clears every
 * capability on the way); what nobody cannot reach is staged first, by root, in a private mount
 * namespace (`STAGE_SCRIPT`, which also joins the cgroup).
 */
function launchCommand(
  sandboxed: readonly string[],
  cgroup: HookCgroup | undefined,
  user: { readonly uid: number; readonly gid: number } | undefined,
  staged: { readonly stage: string; readonly staging: readonly string[] } | undefined,
): string[] {
  const command =
    user === undefined
      ? [...sandboxed]
      : ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', ...sandboxed];
  if (staged !== undefined)
    return [
      'unshare',
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      STAGE_SCRIPT,
      'hookline-stage',
      staged.stage,
      cgroup?.procs ?? '',
      ...staged.staging,
      '--',
      ...command,
    ];
  return cgroup === undefined ? command : ['sh', '-c', 'echo $$ > "$0" && exec "$@"', cgroup.procs, ...command];
}

/** `[sandbox.bubblewrap]`: the host validates it while loading the config and passes the result here. */
bubblewrapSandbox.settingsTable = bubblewrapSettingsTable;
