/**
 * Verdicts in every picture: a point or bar that stands on a phase the runner judged warning or invalid
 * (runner/validity.ts: client-bound, saturated, a dip, failed operations) is drawn hollow or hatched, never like a
 * result, and its reasons are on hover (charts.ts reads `verdicts` from the dataset) and in the tables.
 */

export interface PointVerdict {
  verdict: string;
  reasons: readonly string[];
}

export const VALID: PointVerdict = { verdict: "valid", reasons: [] };

/** A point drawn as a result only when every phase under it was judged valid. */
export function isSuspect(v: PointVerdict | null | undefined): boolean {
  return v !== null && v !== undefined && (v.verdict === "warning" || v.verdict === "invalid");
}

/** One line under a chart that has hollow or hatched marks: what they mean, and where the reasons are. */
export function verdictNote(verdicts: readonly (PointVerdict | null | undefined)[]): string {
  const suspect = verdicts.filter(isSuspect) as PointVerdict[];
  if (suspect.length === 0) return "";
  const invalid = suspect.filter((v) => v.verdict === "invalid").length;
  const codes = [...new Set(suspect.flatMap((v) => v.reasons.map(reasonCode)))].slice(0, 4);
  const what = `${suspect.length - invalid ? `${suspect.length - invalid} warning` : ""}${suspect.length - invalid && invalid ? " and " : ""}${invalid ? `${invalid} invalid` : ""}`;
  return ` Hollow markers and hatched bars (${what}${codes.length ? `: ${codes.join(", ")}` : ""}) stand on phases the runner did not judge valid: read them as this machine's limits, not the database's (hover for why).`;
}

/** "client CPU averaged 93% (> 70%): ..." -> "client-bound": the short name of a reason for a one-line note. */
export function reasonCode(reason: string): string {
  if (/client CPU/.test(reason)) return "client-bound";
  if (/ops\/s target/.test(reason)) return "saturated";
  if (/throughput fell/.test(reason)) return "throughput dip";
  if (/operations failed/.test(reason)) return "failed operations";
  if (/CPU steal/.test(reason)) return "CPU steal";
  return reason.split(/[:(]/)[0]!.trim().slice(0, 40);
}

/** Hover lines for a point: its verdict and reasons (none for a valid point). */
export function verdictLines(v: PointVerdict | null | undefined): string[] {
  if (!isSuspect(v)) return [];
  return [`verdict: ${v!.verdict}`, ...v!.reasons.map((r) => `  ${r}`)];
}

/**
 * Per-point marker colours of a line or scatter dataset: a suspect point is hollow (white inside, its series' colour
 * around), others filled; `verdicts` rides along for the hover and the tests.
 */
export function hollowPoints(fill: string, verdicts: readonly (PointVerdict | null | undefined)[]) {
  return {
    pointBackgroundColor: verdicts.map((v) => (isSuspect(v) ? "#ffffff" : fill)),
    pointBorderWidth: verdicts.map((v) => (isSuspect(v) ? 2.5 : 1)),
    verdicts: verdicts.map((v) => v ?? VALID),
  };
}

const patterns = new Map<string, CanvasPattern | string>();

/** Diagonal hatching in a colour, for a bar whose value stands on a suspect phase (cached per colour). */
export function hatch(colour: string): CanvasPattern | string {
  const cached = patterns.get(colour);
  if (cached) return cached;
  const tile = document.createElement("canvas");
  tile.width = tile.height = 8;
  const g = tile.getContext("2d");
  if (!g) return colour;
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, 8, 8);
  g.strokeStyle = colour;
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(0, 8), g.lineTo(8, 0);
  g.moveTo(-2, 2), g.lineTo(2, -2);
  g.moveTo(6, 10), g.lineTo(10, 6);
  g.stroke();
  const pattern = g.createPattern(tile, "repeat") ?? colour;
  patterns.set(colour, pattern);
  return pattern;
}

/** Per-bar fills of a bar dataset: hatched where the bar stands on a suspect phase. */
export function hatchedBars(fill: string, stroke: string, verdicts: readonly (PointVerdict | null | undefined)[]) {
  return {
    backgroundColor: verdicts.map((v) => (isSuspect(v) ? hatch(stroke) : fill)),
    verdicts: verdicts.map((v) => v ?? VALID),
  };
}
