/** CSV (RFC 4180) of flat rows; the header is the union of the rows' keys in first-seen order. */
export function toCsv(rows: readonly Record<string, unknown>[]): string {
  const header: string[] = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!header.includes(k)) header.push(k);
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return "";
    const s = typeof v === "object" ? JSON.stringify(v) : String(v);
    // Quote when needed; a leading =,+,-,@ is prefixed so spreadsheets do not run it as a formula.
    const safe = /^[=+\-@\t\r]/.test(s) && Number.isNaN(Number(s)) ? `'${s}` : s;
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  return [header.join(","), ...rows.map((r) => header.map((k) => cell(r[k])).join(","))].join("\r\n") + "\r\n";
}

/** Flattens nested objects into dotted keys: {a: {b: 1}} -> {"a.b": 1}; arrays stay JSON. */
export function flatten(obj: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}
