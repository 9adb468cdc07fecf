/** CSV export of a chart's data (RFC 4180: quote fields holding a comma, quote or line break). */

import { csvTable } from "../../model/csv.js";

export type CsvCell = string | number | null | undefined;

/** The one CSV writer (model/csv.ts), typed for the cells a chart exports. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return csvTable(header, rows);
}

/** A chart's datasets as long-format rows: one line per point, so any series shape fits one header. */
export interface SeriesForCsv {
  label: string;
  points: readonly { x: number | string; y: number | null }[];
}

export function seriesToCsv(xName: string, yName: string, series: readonly SeriesForCsv[]): string {
  const rows: CsvCell[][] = [];
  for (const s of series) for (const p of s.points) rows.push([s.label, p.x, p.y]);
  return toCsv(["series", xName, yName], rows);
}
