/**
 * The one-line live view of a client: phase, ops/s, p99 and time left, from YCSB's `-s` status lines as they
 * stream. Pure: fed one stderr line at a time.
 */
export interface ProgressState {
  client: number;
  phase: string;
  opsPerSec?: number;
  operations?: number;
  /** Worst p99 over the operation groups of the last status line, us. */
  p99Us?: number;
  elapsedSec?: number;
  /** From the time cap, or YCSB's own "est completion". */
  leftSec?: number;
}

const STATUS =
  /^\S+ \S+ (\d+) sec: (\d+) operations; (?:([\d.]+|∞) current ops\/sec; )?(?:est completion in ([^[]+?) ?)?(\[.*)?$/;

/** YCSB prints "est completion in 1 hour 2 minutes" or "3 minutes" or "45 seconds". */
export function parseDuration(text: string): number | undefined {
  let sec = 0;
  let seen = false;
  for (const m of text.matchAll(/(\d+)\s*(day|hour|minute|second)s?/g)) {
    const mult = { day: 86400, hour: 3600, minute: 60, second: 1 }[m[2] as "day" | "hour" | "minute" | "second"];
    sec += Number(m[1]) * mult;
    seen = true;
  }
  return seen ? sec : undefined;
}

/** Fold one stderr line into the state (lines that are not status lines leave it as it was). */
export function updateProgress(s: ProgressState, line: string, maxExecutionTimeSec?: number): ProgressState {
  const m = STATUS.exec(line.trim());
  if (!m) return s;
  const elapsedSec = Number(m[1]);
  const ops = m[3] === undefined || m[3] === "∞" ? undefined : Number(m[3]);
  let p99: number | undefined;
  for (const g of (m[5] ?? "").matchAll(/\[[^:\]]+: [^\]]*?\b99=([\d.]+)/g)) p99 = Math.max(p99 ?? 0, Number(g[1]));
  // Before any operation has finished YCSB's estimate divides by a zero rate (e.g. 2562047788015215h13m): no ETA yet.
  const est = m[4] && Number(m[2]) > 0 ? parseDuration(m[4]) : undefined;
  const capLeft = maxExecutionTimeSec ? Math.max(0, maxExecutionTimeSec - elapsedSec) : undefined;
  const leftSec = est !== undefined && capLeft !== undefined ? Math.min(est, capLeft) : (est ?? capLeft);
  return { ...s, elapsedSec, operations: Number(m[2]), opsPerSec: ops ?? s.opsPerSec, p99Us: p99 ?? s.p99Us, leftSec };
}

const fmtSec = (s: number) =>
  s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`
      : `${Math.round(s)}s`;

export function renderProgress(s: ProgressState): string {
  const ops =
    s.opsPerSec === undefined
      ? "-"
      : s.opsPerSec >= 1000
        ? `${(s.opsPerSec / 1000).toFixed(1)}k`
        : s.opsPerSec.toFixed(0);
  const p99 =
    s.p99Us === undefined ? "-" : s.p99Us >= 1000 ? `${(s.p99Us / 1000).toFixed(1)}ms` : `${s.p99Us.toFixed(0)}us`;
  const left = s.leftSec === undefined ? "-" : fmtSec(s.leftSec);
  return `client ${s.client} | ${s.phase} | ${ops} ops/s | p99 ${p99} | ${s.elapsedSec ?? 0}s elapsed, ${left} left`;
}
