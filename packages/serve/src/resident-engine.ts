import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { JsonLog } from './json-log.ts';
import { ProjectSlot, type SlotStatus } from './project-slot.ts';
import type { HookAnswer, ServeBackend, ServeRoute } from './serve-backend.ts';

/** Every project's loaded config, by project folder and profile. */
export interface ResidentEngine {
  /** Answers one request of an agent working in `projectDir`. */
  answer(projectDir: string, route: ServeRoute, payload: Readonly<Record<string, unknown>>): Promise<HookAnswer>;
  /** Loads (or reloads) a project's config ahead of its first request: resumes its journal, reports problems. */
  preload(projectDir: string, route: ServeRoute): Promise<void>;
  /** Checks every loaded project for changes (so that status is current) and lists them. */
  status(): Promise<SlotStatus[]>;
  /** Closes every config, after its running hooks finished. */
  close(): Promise<void>;
}

/** Builds the engine around the embedding program's backend. */
export function createResidentEngine(options: {
  readonly backend: ServeBackend;
  readonly trustFile: string;
  readonly log: JsonLog;
}): ResidentEngine {
  const slots = new Map<string, ProjectSlot>();
  // The folders agents report, by their real path: asked once per folder, not per call.
  const canonical = new Map<string, string>();
  const slotFor = (projectDir: string, route: ServeRoute): ProjectSlot => {
    let project = canonical.get(projectDir);
    if (project === undefined) {
      if (canonical.size >= MAX_REMEMBERED_FOLDERS) canonical.clear();
      canonical.set(projectDir, (project = canonicalDir(projectDir)));
    }
    const profile = options.backend.profileOf(route);
    const key = `${project}\0${profile}`;
    let slot = slots.get(key);
    if (slot === undefined) slots.set(key, (slot = new ProjectSlot(project, profile, options)));
    return slot;
  };
  return {
    answer: (projectDir, route, payload) => slotFor(projectDir, route).answer(route, payload),
    preload: (projectDir, route) => slotFor(projectDir, route).refresh(),
    async status() {
      await Promise.all([...slots.values()].map((slot) => slot.refresh().catch(() => undefined)));
      return [...slots.values()].map((slot) => slot.status());
    },
    async close() {
      await Promise.all([...slots.values()].map((slot) => slot.close()));
      slots.clear();
    },
  };
}

/** How many reported folders' real paths are remembered before the memory is cleared (memory stays bounded). */
const MAX_REMEMBERED_FOLDERS = 4096;

/** The folder by its real path, so that a symlinked checkout and its target are one project. */
function canonicalDir(dir: string): string {
  const absolute = isAbsolute(dir) ? dir : resolve(dir);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}
