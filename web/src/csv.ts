/** CSV export of a chart's data (RFC 4180: quote fields holding a comma, quote or line break). */

export type CsvCell = string | number | null | undefined;

export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header.map(csvField).join(",")];
  for (const row of rows) lines.push(row.map(csvField).join(","));
  return `${lines.join("\r\n")}\r\n`;
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
