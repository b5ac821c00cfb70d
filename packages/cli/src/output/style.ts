import { styleText } from 'node:util';
import type { CliOutput } from '../cli-io.ts';

/** A `node:util` styleText format: a modifier or color name, or a list of them. */
export type StyleFormat = Parameters<typeof styleText>[0];

/** Paints text for one output stream, or leaves it plain. */
export interface Style {
  readonly color: boolean;
  paint(format: StyleFormat, text: string): string;
}

/**
 * Colors only on a terminal, never when `NO_COLOR` is set (no-color.org), always when `FORCE_COLOR`
 * is set to something other than 0, never for `TERM=dumb`.
 */
export function createStyle(output: CliOutput, env: Readonly<Record<string, string | undefined>>): Style {
  const forced = env['FORCE_COLOR'];
  const color = env['NO_COLOR']
    ? false
    : forced !== undefined && forced !== ''
      ? forced !== '0'
      : output.isTTY === true && env['TERM'] !== 'dumb';
  return {
    color,
    paint: (format, text) => (color && text !== '' ? styleText(format, text, { validateStream: false }) : text),
  };
}
