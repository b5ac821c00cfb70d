import type { ErrorMessage, InferOutput, ObjectEntries, ObjectIssue, ObjectSchema } from 'valibot';
import type { OnErrorPolicy } from '../decisions/decision.ts';
import type { KeyRule } from './key-rule.ts';

/**
 * The valibot object schema of one hook type's own keys (`v.object({ url: v.string(), … })`). The
 * loader merges its entries with the common hook keys; an entry that is not optional is required.
 */
export type HookOptionsSchema = ObjectSchema<ObjectEntries, ErrorMessage<ObjectIssue> | undefined>;

/** A hook's own keys as its type's schema outputs them: what `identity`, `check` and `doRun` receive. */
export type HookOptions<TSchema extends HookOptionsSchema = HookOptionsSchema> = Readonly<InferOutput<TSchema>>;

/** A problem a runner finds in one hook's keys beyond what its schema says (e.g. `http://` with TLS on). */
export interface HookKeyProblem {
  /** The key the problem is about, so the error can point at its line. */
  readonly key: string;
  readonly message: string;
  /** How to fix it, shown after the message like core's own fixes. */
  readonly fix?: string;
}

/**
 * What the config loader knows of one hook `type`: its keys, defaults, naming and checks. A
 * `RunnerType` adds how hooks of the type run. Kept apart from it, so that the config side needs
 * nothing of the run side (and the two never import each other).
 */
export interface HookTypeDeclaration<TSchema extends HookOptionsSchema = HookOptionsSchema> {
  /** The schema of this type's own keys (`url`, `headers`, …); the common hook keys are added by core. */
  readonly options: TSchema;
  /** Used when a hook does not set `timeout_ms`. */
  readonly defaultTimeoutMs: number;
  /** Used when a hook does not set `on_error`: `block` fails closed, `proceed` fails open. */
  readonly defaultOnError: OnErrorPolicy;
  /** Whether hooks of this type run inside the sandbox when `sandbox = true` (HTTP hooks do not). */
  readonly usesSandbox: boolean;
  /**
   * The part of an unnamed hook's effective name after `"{event}:"`, e.g. the first 20 characters of
   * the command. Defaults to the type name. The loader also asks it to name a hook whose keys have
   * other problems, so it may see keys that failed validation: a throw falls back to the type name.
   */
  identity?(options: HookOptions<TSchema>): string;
  /**
   * Rules across keys that JSON Schema can state (`http://` needs tls = "off"): the loader checks
   * them and the config's JSON Schema carries them as `if`/`then`, so editors and the loader agree.
   */
  readonly rules?: readonly KeyRule[];
  /** Checks across keys that a schema cannot express; called only with keys that passed the schema. */
  check?(options: HookOptions<TSchema>): readonly HookKeyProblem[];
}
