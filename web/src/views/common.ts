/** Pieces several views share: published-series labels, dataset looks, axis formats. */
import type { RunSource } from "../api.js";
import { BASELINE_COLOUR, engineColour, seriesLook } from "../palette.js";
import { el, formatNumber } from "../ui.js";
import { changeFrom, type BaselinePeak } from "../../../model/history.js";

/**
 * "cassandra (measured)", "cassandra (stand-in)" (measured on site.ycsb.BasicDB, FerretDB or CouchbaseMock, never
 * drawn as the engine) or "cassandra: End Point Corporation 2015 (seed 000)": published series carry their citation.
 */
export function seriesLabel(name: string, source: RunSource): string {
  if (source.kind !== "published") return `${name} (${source.standIn ? "stand-in" : "measured"})`;
  return `${name}: ${source.citation ? shortCitation(source.citation, source.seed) : `seed ${source.seed ?? "?"}`}`;
}

/**
 * A legend-sized citation: `Authors, "Title", ..., 2015` -> "Authors 2015 (seed 000)" (a chart legend does not wrap,
 * and five seeds' full titles pushed each other off the chart). Anything of another shape is kept whole.
 */
export function shortCitation(citation: string, seed?: string): string {
  const comma = citation.indexOf(", ");
  const year = /, (\d{4})$/.exec(citation);
  if (comma <= 0 || !year) return citation;
  return `${citation.slice(0, comma)} ${year[1]}${seed ? ` (seed ${seed})` : ""}`;
}

export function lookFor(engine: string, source: RunSource, index = 0) {
  return seriesLook(engineColour(engine, index), source.kind === "published");
}

export function isPublished(source: RunSource): boolean {
  return source.kind === "published";
}

/** Shared options for dense series (STYLE.md: parsing false, normalized true). */
export const DENSE = { parsing: false as const, normalized: true as const, animation: false as const };

export function axisTitle(text: string) {
  return { display: true, text };
}

export function msLabel(us: number | null | undefined): number | null {
  return us === null || us === undefined ? null : us / 1000;
}

/**
 * A table cell with a value's change against its configuration's pinned baseline: data-baseline holds the fraction
 * (-0.12 = 12 % lower), "self" on the baseline's own row, "none" without a baseline.
 */
export function baselineCell(base: BaselinePeak | undefined, value: number | null | undefined, self = false): HTMLTableCellElement {
  if (!base) return el("td", { class: "num", "data-baseline": "none", title: "no baseline pinned for this configuration" }, "–");
  if (self) return el("td", { class: "num baseline", "data-baseline": "self" }, "baseline");
  const change = changeFrom(base.throughputOpsSec, value);
  const title = `against ${base.runId} (${base.engineVersion}): ${formatNumber(base.throughputOpsSec)} ops/s at ${base.threads} threads`;
  return el("td", { class: "num", "data-baseline": String(change ?? ""), title }, changeText(change));
}

export function changeText(change: number | null): string {
  return change === null ? "–" : `${change > 0 ? "+" : ""}${formatNumber(change * 100, 1)} %`;
}

/** A chart's marks for baselines: black crosses, named by the run pinned, drawn without a line. */
export function baselineMarks(label: string, data: { x: number; y: number }[], line = false) {
  return {
    label,
    data,
    borderColor: BASELINE_COLOUR,
    backgroundColor: BASELINE_COLOUR,
    borderDash: [6, 4],
    borderWidth: line ? 1.5 : 2,
    pointStyle: "crossRot" as const,
    pointRadius: line ? 0 : 9,
    showLine: line,
  };
}
