/** Formatting for the bench's tables. */
import type { Summary } from './stats.js';

export const ms = (value: number) => `${Math.round(value)} ms`;
export const ratio = (value: number) => `${value.toFixed(2)} ×`;
export const mib = (value: number) => `${value.toFixed(1)} MiB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
export const spread = (summary: Summary, digits = 0) =>
  `${summary.p25.toFixed(digits)}–${summary.p75.toFixed(digits)}`;

export function verdict(value: number, limit: number): string {
  const met = value <= limit;
  // 1.102 prints as 1.10: say which side of the limit it fell on.
  const close = value.toFixed(2) === limit.toFixed(2) ? ` (${value.toFixed(3)})` : '';
  return `≤ ${limit.toFixed(2)} ${met ? 'met' : 'MISSED'}${close}`;
}

/** Rows of cells: the first column left-aligned, the others right-aligned. */
export function table(rows: readonly (readonly string[])[]): string {
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[0] as number) : cell.padStart(widths[column] as number),
        )
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}
