import type { StatusPoint, StatusSeries } from "./result-document.js";

/** A series with no status line. */
export function emptyStatusSeries(): StatusSeries {
  return { at: [], elapsedSec: [], operations: [], opsPerSec: [], estCompletionSec: [], perOperation: {} };
}

/** The number of status lines. */
export function statusSeriesLength(series: StatusSeries): number {
  return series.elapsedSec.length;
}

/**
 * Status line i in the row shape: optional fields left out where null, and only the groups with at least one
 * value on that line (a group padded with null before it was first printed does not appear).
 */
export function statusPoint(series: StatusSeries, i: number): StatusPoint {
  const n = statusSeriesLength(series);
  if (!Number.isInteger(i) || i < 0 || i >= n)
    throw new RangeError(`status line ${i} is out of range: the series has ${n} lines`);
  const point: StatusPoint = {
    elapsedSec: series.elapsedSec[i]!,
    operations: series.operations[i]!,
    opsPerSec: series.opsPerSec[i] ?? null,
    perOperation: {},
  };
  const at = series.at[i];
  if (at != null) point.at = at;
  const est = series.estCompletionSec[i];
  if (est != null) point.estCompletionSec = est;
  for (const name in series.perOperation) {
    const g = series.perOperation[name]!;
    const count = g.count[i] ?? null;
    const avgUs = g.avgUs[i] ?? null;
    const minUs = g.minUs[i];
    const maxUs = g.maxUs[i];
    let percentilesUs: Record<string, number> | undefined;
    for (const key in g.percentilesUs) {
      const v = g.percentilesUs[key]![i];
      if (v != null) (percentilesUs ??= {})[key] = v;
    }
    if (count === null && avgUs === null && minUs == null && maxUs == null && !percentilesUs) continue;
    const entry: StatusPoint["perOperation"][string] = { count, avgUs };
    if (minUs != null) entry.minUs = minUs;
    if (maxUs != null) entry.maxUs = maxUs;
    if (percentilesUs) entry.percentilesUs = percentilesUs;
    point.perOperation[name] = entry;
  }
  return point;
}

/** Every status line in the row shape (for small series and tests; hot paths read the columns). */
export function statusPoints(series: StatusSeries): StatusPoint[] {
  const out: StatusPoint[] = [];
  for (let i = 0; i < statusSeriesLength(series); i++) out.push(statusPoint(series, i));
  return out;
}

/** What the schema cannot say: every column holds one entry per status line. Empty when consistent. */
export function statusSeriesProblems(
  series: StatusSeries,
  path = "/statusSeries",
): { path: string; message: string }[] {
  const n = statusSeriesLength(series);
  const problems: { path: string; message: string }[] = [];
  const check = (column: unknown[], at: string) => {
    if (column.length !== n)
      problems.push({
        path: `${path}/${at}`,
        message: `has ${column.length} entries, the series has ${n} status lines (elapsedSec)`,
      });
  };
  check(series.at, "at");
  check(series.operations, "operations");
  check(series.opsPerSec, "opsPerSec");
  check(series.estCompletionSec, "estCompletionSec");
  for (const [name, g] of Object.entries(series.perOperation)) {
    const base = `perOperation/${name}`;
    check(g.count, `${base}/count`);
    check(g.avgUs, `${base}/avgUs`);
    check(g.minUs, `${base}/minUs`);
    check(g.maxUs, `${base}/maxUs`);
    for (const [key, column] of Object.entries(g.percentilesUs)) check(column, `${base}/percentilesUs/${key}`);
  }
  return problems;
}
