import { defineSettingsTable } from '@hookline/core/plugin';
import * as v from 'valibot';
import { InvalidOptionError } from '@hookline/core/plugin';

/**
 * The day the alias table was last checked against Anthropic's current models: the newest Haiku,
 * Sonnet and Opus ids in `@anthropic-ai/sdk` 0.137's `Model` type, which are also what Claude Code's
 * own `haiku`/`sonnet`/`opus` aliases resolve to. Update both together.
 */
export const MODELS_CHOSEN_ON = '2026-11-29';

/** What `model = "haiku"` (the default), `"sonnet"` and `"opus"` mean unless the `models` setting says otherwise. */
export const DEFAULT_MODELS: Readonly<Record<string, string>> = Object.freeze({
  haiku: 'claude-haiku-5-5',
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
});

/** Prompt and agent hooks use the fast, cheap model unless told otherwise. */
export const DEFAULT_MODEL_ALIAS = 'haiku';

/** Model ids of Anthropic's API start with this; anything else that is not an alias is a typo. */
export const MODEL_ID_PREFIX = 'claude-';

const aliasMessage = 'must be a model alias: letters, digits, ".", "_" or "-"';
const idMessage = 'must be a model id such as "claude-haiku-5-5" (a non-empty string)';

/**
 * The `[models]` table of a config file (alias → model id), which the CLI passes to
 * `llmRunner({ models })`: it adds aliases and overrides the built-in ones.
 *
 * ```toml
 * [models]
 * haiku = "claude-haiku-4-5"   # pin an older model
 * judge = "claude-opus-5-5"    # a new alias: model = "judge"
 * ```
 */
export const modelsSchema = v.record(
  v.pipe(v.string(aliasMessage), v.regex(/^[A-Za-z0-9._-]+$/, aliasMessage)),
  v.pipe(v.string(idMessage), v.regex(/^\S+$/, idMessage)),
);

/**
 * `[models]` as a settings table: the loader validates it (each bad entry at its line) and the
 * host hands the result to `llmRunner` as its settings, `{ models }`.
 */
export const modelsSettingsTable = defineSettingsTable({
  path: 'models',
  description:
    'Model aliases for prompt and agent hooks (alias = "model id"), on top of (or replacing) the built-in haiku, sonnet and opus.',
  schema: v.pipe(
    modelsSchema,
    v.transform((models) => ({ models })),
  ),
});

/** The alias → model id table: {@link DEFAULT_MODELS} with the host's `models` setting on top. */
export type ModelTable = Readonly<Record<string, string>>;

/** A hook's `model` resolved against the table, or why it cannot be. */
export type ModelResolution =
  { readonly ok: true; readonly id: string } | { readonly ok: false; readonly message: string };

/**
 * Resolves a hook's `model`: an alias in the table maps to its id, a value starting with `claude-`
 * passes through as a full model id, anything else is an unknown alias (a load error, through the
 * runner type's `check`).
 */
export function resolveModel(model: string | undefined, table: ModelTable): ModelResolution {
  const name = model ?? DEFAULT_MODEL_ALIAS;
  if (Object.hasOwn(table, name)) return { ok: true, id: table[name]! };
  if (name.startsWith(MODEL_ID_PREFIX)) return { ok: true, id: name };
  const aliases = Object.keys(table);
  return {
    ok: false,
    message: `unknown model alias "${name}": use one of ${aliases.map((alias) => `"${alias}"`).join(', ')}, add it to the [models] table, or give a full model id starting with "${MODEL_ID_PREFIX}"`,
  };
}

/** Merges the host's `models` setting over the defaults, refusing entries that are not alias → id strings. */
export function modelTable(models: Readonly<Record<string, string>> | undefined): ModelTable {
  if (models === undefined) return DEFAULT_MODELS;
  const parsed = v.safeParse(modelsSchema, models);
  if (!parsed.success) {
    const problems = parsed.issues.map(
      (issue) => `${issue.path?.map((item) => String(item.key)).join('.') ?? 'models'} ${issue.message}`,
    );
    throw new InvalidOptionError('llmRunner', 'models', `invalid models setting: ${problems.join('; ')}`);
  }
  return Object.freeze({ ...DEFAULT_MODELS, ...parsed.output });
}
