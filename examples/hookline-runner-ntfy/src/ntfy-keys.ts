import type { HookOptions } from '@hookline/core/plugin';
import * as v from 'valibot';

// ntfy's priority names and the numbers its JSON API takes.
const PRIORITY_NAMES = { min: 1, low: 2, default: 3, high: 4, max: 5, urgent: 5 } as const;

// One valibot object schema: core merges its entries with the common hook keys, so it gives this
// runner validation, error messages with lines and the JSON Schema without any more code — and the
// runner's `doRun` receives its output type, so nothing is cast.
/** The valibot object schema of an ntfy hook's own keys. Non-optional keys are required. */
export const ntfyOptions = v.object({
  topic: v.pipe(
    v.string('must be a string: the ntfy topic to publish to'),
    v.regex(/^[-_A-Za-z0-9]{1,64}$/, "must be 1 to 64 letters, digits, - or _ (ntfy's topic rule)"),
    v.description('The ntfy topic to publish to.'),
  ),
  server: v.optional(
    v.pipe(
      v.string('must be a URL such as "https://ntfy.sh"'),
      v.url('must be a URL such as "https://ntfy.sh"'),
      v.description('The ntfy server; default https://ntfy.sh.'),
    ),
  ),
  title: v.optional(
    v.pipe(v.string('must be a string'), v.description('Notification title; {field} inserts a context field.')),
  ),
  message: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.description('Notification body; {field} inserts a context field. Default: a one-line summary of the event.'),
    ),
  ),
  priority: v.optional(
    v.union(
      [
        v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(5)),
        v.picklist(Object.keys(PRIORITY_NAMES) as Array<keyof typeof PRIORITY_NAMES>),
      ],
      'must be 1 to 5, or one of min, low, default, high, max, urgent',
    ),
  ),
  tags: v.optional(
    v.pipe(v.array(v.string(), 'must be a list of strings'), v.description('ntfy tags (emoji short codes work).')),
  ),
  decision: v.optional(
    v.pipe(
      v.picklist(['proceed', 'block'], 'must be "proceed" or "block"'),
      v.description('What the hook decides once the notification is delivered; default proceed.'),
    ),
  ),
  reason: v.optional(v.pipe(v.string('must be a string'), v.description('The reason given with decision = "block".'))),
});

/** The keys of a `type = "ntfy"` hook as the runner receives them, validated. */
export type NtfyHookOptions = HookOptions<typeof ntfyOptions>;

/** ntfy's numeric priority for a configured one. */
export function priorityNumber(priority: NtfyHookOptions['priority']): number | undefined {
  return typeof priority === 'string' ? PRIORITY_NAMES[priority] : priority;
}
