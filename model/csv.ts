/**
 * The one CSV writer (RFC 4180: a field holding a comma, a quote or a line break is quoted, quotes doubled, lines end
 * with CRLF), shared by the API's `?format=csv` answers and the dashboard's chart exports.
 */

/** One field: empty for null, undefined and non-finite numbers; objects as JSON; text that a spreadsheet would run
 * as a formula (a leading =, +, -, @, tab or CR that is not a number) prefixed with a quote (OWASP, "CSV Injection"). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" && !Number.isFinite(value)) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && Number.isNaN(Number(text)) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A header and rows of fields. */
export function csvTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const lines = [header.map(csvField).join(",")];
  for (const row of rows) lines.push(row.map(csvField).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Flat records; the header is the union of their keys in first-seen order. */
export function csvRecords(rows: readonly Record<string, unknown>[]): string {
  const header: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!header.includes(k)) header.push(k);
  return csvTable(
    header,
    rows.map((r) => header.map((k) => r[k])),
  );
}
