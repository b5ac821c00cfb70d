import { messageOf } from '@hookline/core';
import { filesSignature } from './config-signature.ts';
import type { JsonLog } from './json-log.ts';
import type { HookAnswer, LoadedConfig, ServeBackend, ServeRoute } from './serve-backend.ts';
import { EMPTY_CONFIG_HASH, trustVerdict } from './trust-store.ts';

/** What `hookline serve status` shows of one project's config. */
export interface SlotStatus {
  readonly project: string;
  readonly profile: string;
  /** `ready`; `stale` (the last reload failed, the last good config answers); `invalid` (none ever loaded); `untrusted`. */
  readonly state: 'ready' | 'stale' | 'invalid' | 'untrusted';
  /** Why it is not `ready`. */
  readonly problem?: string;
  readonly loadedAt?: string;
  readonly answered: number;
}

/** A loaded config in use: closed once it is replaced and its last request has been answered. */
interface Generation {
  readonly config: LoadedConfig;
  readonly loadedAt: string;
  inFlight: number;
  retired: boolean;
}

/** Where the daemon keeps the trust records. */
export interface SlotOptions {
  readonly backend: ServeBackend;
  readonly trustFile: string;
  readonly log: JsonLog;
}

/**
 * One project's config of one profile, kept loaded between requests. Before each request the config
 * files, the other files trust covers and the trust records are checked for changes; a change is
 * loaded and validated before it replaces the config in use, and a change that fails leaves the last
 * good config answering, with a notice. A project config that is not trusted (any more) runs nothing.
 */
export class ProjectSlot {
  readonly #options: SlotOptions;
  readonly project: string;
  readonly profile: string;
  #signature: string | undefined;
  #current: Generation | undefined;
  #problem: string | undefined;
  #untrusted: string | undefined;
  #refreshing: Promise<void> | undefined;
  #answered = 0;
  #watched: readonly string[] | undefined;

  constructor(project: string, profile: string, options: SlotOptions) {
    this.project = project;
    this.profile = profile;
    this.#options = options;
  }

  /** Runs the route's hooks with the current config, refreshing it first when its files changed. */
  async answer(route: ServeRoute, payload: Readonly<Record<string, unknown>>): Promise<HookAnswer> {
    await this.refresh();
    this.#answered += 1;
    const { backend } = this.#options;
    if (this.#untrusted !== undefined) return backend.refuse(route, payload, this.#untrusted);
    const generation = this.#current;
    if (generation === undefined) {
      return backend.refuse(
        route,
        payload,
        `hookline cannot load the hook configuration: ${this.#problem ?? 'unknown problem'}`,
      );
    }
    generation.inFlight += 1;
    try {
      return await generation.config.answer(route, payload, this.#notice());
    } finally {
      generation.inFlight -= 1;
      if (generation.retired && generation.inFlight === 0) void this.#closeGeneration(generation);
    }
  }

  /** Reloads when the config files or the trust records changed since the last look. */
  refresh(): Promise<void> {
    if (this.#refreshing !== undefined) return this.#refreshing;
    // Where the config may come from is fixed for a project; only the files' states are checked each time.
    // Watched: the files this profile reads, and every file trust covers (another agent's settings in the
    // project too): an edit to any of them is seen at the next call, not at whatever later edit next
    // makes the slot reload.
    this.#watched ??= [
      ...new Set([
        ...this.#options.backend.configCandidates(this.project, this.profile),
        ...this.#options.backend.projectConfigFiles(this.project),
        this.#options.trustFile,
      ]),
    ];
    const signature = filesSignature(this.#watched);
    if (signature === this.#signature) return Promise.resolve();
    this.#refreshing = this.#reload(signature).finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  status(): SlotStatus {
    const state =
      this.#untrusted !== undefined
        ? 'untrusted'
        : this.#current === undefined
          ? 'invalid'
          : this.#problem === undefined
            ? 'ready'
            : 'stale';
    const problem = this.#untrusted ?? this.#problem;
    return {
      project: this.project,
      profile: this.profile,
      state,
      ...(problem === undefined ? {} : { problem }),
      ...(this.#current === undefined ? {} : { loadedAt: this.#current.loadedAt }),
      answered: this.#answered,
    };
  }

  /** Waits for a reload under way, then closes the config in use (its hooks finish first). */
  async close(): Promise<void> {
    await this.#refreshing?.catch(() => undefined);
    const current = this.#current;
    this.#current = undefined;
    if (current !== undefined) await this.#retire(current);
  }

  async #reload(signature: string): Promise<void> {
    const { backend, trustFile, log } = this.#options;
    const where = { project: this.project, profile: this.profile };
    let verdict;
    try {
      verdict = trustVerdict(trustFile, this.project, backend.projectConfigFiles(this.project));
    } catch (error) {
      verdict = { trusted: false as const, hash: '', reason: 'never-trusted' as const, problem: messageOf(error) };
    }
    if (!verdict.trusted && verdict.hash !== EMPTY_CONFIG_HASH) {
      this.#untrusted = untrustedReason(this.project, verdict.reason);
      this.#signature = signature;
      log.warn('project config not trusted: its hooks do not run', { ...where, reason: verdict.reason });
      const current = this.#current;
      this.#current = undefined;
      this.#problem = undefined;
      if (current !== undefined) await this.#retire(current);
      return;
    }
    this.#untrusted = undefined;
    try {
      const config = await backend.load(this.project, this.profile);
      const previous = this.#current;
      this.#current = { config, loadedAt: new Date().toISOString(), inFlight: 0, retired: false };
      this.#problem = undefined;
      log.info(previous === undefined ? 'config loaded' : 'config reloaded', where);
      if (previous !== undefined) await this.#retire(previous);
    } catch (error) {
      this.#problem = messageOf(error);
      log.error(
        this.#current === undefined
          ? 'config cannot be loaded: guard events are blocked'
          : 'config change is invalid: the last good config keeps answering',
        { ...where, problem: this.#problem },
      );
    }
    this.#signature = signature;
  }

  #notice(): string | undefined {
    return this.#problem === undefined
      ? undefined
      : `Hookline: the changed hook configuration of ${this.project} is invalid, so the last good one is still in use. ${this.#problem}`;
  }

  async #retire(generation: Generation): Promise<void> {
    generation.retired = true;
    if (generation.inFlight === 0) await this.#closeGeneration(generation);
  }

  async #closeGeneration(generation: Generation): Promise<void> {
    try {
      await generation.config.close();
    } catch (error) {
      this.#options.log.error('closing a replaced config failed', { project: this.project, problem: messageOf(error) });
    }
  }
}

function untrustedReason(project: string, reason: 'never-trusted' | 'changed'): string {
  const why = reason === 'changed' ? 'has changed since it was trusted' : 'has not been trusted';
  return `Hookline did not run this project's hooks: the hook configuration of ${project} ${why}. Review it, then run \`hookline trust\` in ${project} (or \`hookline trust ${project}\`).`;
}
