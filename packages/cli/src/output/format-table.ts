import type { Style, StyleFormat } from './style.ts';
import { terminalText } from './terminal-text.ts';

/** One table cell: its text, and how to paint it once padded (so colors never skew the widths). */
export type Cell = string | { readonly text: string; readonly format?: StyleFormat | undefined };

/** Lays out rows under headers in aligned columns, two spaces apart, indented by two. */
export function formatTable(headers: readonly string[], rows: ReadonlyArray<readonly Cell[]>, style: Style): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => textOf(row[column]).length)),
  );
  const line = (cells: readonly Cell[], header: boolean): string =>
    `  ${cells
      .map((cell, column) => {
        // The last column is not padded, so lines carry no trailing spaces.
        const text = column === cells.length - 1 ? textOf(cell) : textOf(cell).padEnd(widths[column]!);
        const format = header ? 'dim' : typeof cell === 'object' ? cell.format : undefined;
        return format === undefined ? text : style.paint(format, text);
      })
      .join('  ')}`.trimEnd();
  return [line(headers, true), ...rows.map((row) => line(row, false))].join('\n');
}

// Cells show names, reasons and values from configs and hooks: escaped here, once for every table.
function textOf(cell: Cell | undefined): string {
  return terminalText(cell === undefined ? '' : typeof cell === 'string' ? cell : cell.text);
}
