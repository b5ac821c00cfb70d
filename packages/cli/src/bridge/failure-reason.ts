import { ConfigError, formatConfigIssue, messageOf } from '@hookline/core';

/**
 * Why Hookline could not decide, as the agent shows it (to the model for a refused guard, to the user
 * otherwise): what went wrong and what to do. `guard`: the call is refused because of it.
 */
export function failureReason(error: unknown, guard: boolean): string {
  const outcome = guard ? 'so this call is refused' : 'so none of its hooks ran for this event';
  if (ConfigError.isInstance(error)) {
    const problems = error.issues.map((issue) => `${formatConfigIssue(issue)}.`).join(' ');
    return `Hookline's hook configuration cannot be loaded, ${outcome}. ${problems} Fix the configuration (\`hookline validate\` lists every problem).`;
  }
  return `Hookline could not run its hooks (${messageOf(error)}), ${outcome}. \`hookline doctor <agent>\` shows what is wrong.`;
}
