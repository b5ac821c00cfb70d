import { builtInPresets } from '@hookline/core';

/**
 * Whether `event` is a guard in `preset` (or, unnamed, in any built-in preset that has it): an event
 * that blocks by default and whose host honours a block. Nothing may turn such an event into an
 * approval when its hooks cannot run.
 */
export function isGuardEvent(event: string, preset: string | undefined): boolean {
  const named = preset === undefined || preset === '' ? undefined : builtInPresets.get(preset);
  const candidates = named === undefined ? builtInPresets.all : [named];
  return candidates.some((candidate) => {
    const spec = candidate.events.find((each) => each.name === event);
    return spec !== undefined && spec.blocking && spec.honours.includes('block');
  });
}
