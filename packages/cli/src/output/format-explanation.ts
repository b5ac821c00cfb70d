import type { HookSelection } from '@hookline/core';
import { formatSource } from './format-source.ts';
import { formatTable } from './format-table.ts';
import type { Style } from './style.ts';
import { terminalText } from './terminal-text.ts';

/**
 * The human form of `hookline explain`: how many hooks of the event would run, the context used,
 * a table of every configured hook with why it would or would not run, and the order they run in —
 * the non-blocking ones together, or one after another for a `sequential` event (task points, agent
 * events); the blocking ones one at a time, or all at once for a `parallel` event (claude).
 */
export function formatExplanation(
  event: string,
  context: Record<string, unknown>,
  selections: readonly HookSelection[],
  style: Style,
  running: { readonly sequential?: boolean | undefined; readonly parallel?: boolean | undefined } = {},
): string {
  const selected = selections.filter((selection) => selection.selected);
  const ofEvent = selections.filter((selection) => selection.hook.event === event).length;
  // JSON escapes C0 in values, but neither keys nor DEL and C1: the whole line is escaped.
  const fields = terminalText(
    Object.entries(context)
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
      .join(' '),
  );
  const lines = [
    `${style.paint('bold', terminalText(event))}: ${selected.length} of ${ofEvent} ${ofEvent === 1 ? 'hook' : 'hooks'} of this event would run (${selections.length} configured)`,
    style.paint('dim', `context: ${fields}`),
  ];
  if (selections.length === 0) return [...lines, '', '  no hooks configured'].join('\n');
  lines.push('');
  lines.push(
    formatTable(
      ['', 'hook', 'event', 'type', 'phase', 'source', 'why'],
      selections.map(({ hook, selected: runs, reason }) => [
        runs ? { text: '✓', format: 'green' } : { text: '✗', format: 'dim' },
        runs ? { text: hook.name, format: 'bold' } : hook.name,
        hook.event,
        hook.type,
        hook.blocking ? 'blocking' : 'non-blocking',
        formatSource(hook),
        runs ? reason : { text: reason, format: hook.event === event ? 'yellow' : 'dim' },
      ]),
      style,
    ),
  );
  if (selected.length > 0) {
    // Blocking hooks run first, one at a time in config order; then the non-blocking ones
    // together — or in config order, each after the previous ended, for a sequential event.
    const blocking = selected.filter((selection) => selection.hook.blocking).map(({ hook }) => hook.name);
    const later = running.sequential === true ? 'non-blocking, in order' : 'non-blocking, concurrently';
    const first = running.parallel === true && blocking.length > 1 ? [`all at once: ${blocking.join(', ')}`] : blocking;
    const order = [
      ...first,
      ...selected.filter((selection) => !selection.hook.blocking).map(({ hook }) => `${hook.name} (${later})`),
    ];
    lines.push('', `  order: ${terminalText(order.join(' → '))}`);
  }
  return lines.join('\n');
}
