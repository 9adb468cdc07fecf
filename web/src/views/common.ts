/** Pieces several views share: published-series labels, dataset looks, axis formats. */
import { Chart } from "chart.js";
import { type BaselinePeak, changeFrom } from "../../../model/history.js";
import type { RunSource } from "../api.js";
import { charsIn, fitLabel } from "../labels.js";
import { BASELINE_COLOUR, distinctLooks, engineColour, type SeriesLook, seriesLook } from "../palette.js";
import { el, formatNumber } from "../ui.js";

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
export function shortCitation(citation: string, seed?: string | null): string {
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
export function baselineCell(
  base: BaselinePeak | undefined,
  value: number | null | undefined,
  self = false,
): HTMLTableCellElement {
  if (!base)
    return el("td", { class: "num", "data-baseline": "none", title: "no baseline pinned for this configuration" }, "–");
  if (self) return el("td", { class: "num baseline", "data-baseline": "self" }, "baseline");
  const change = changeFrom(base.throughputOpsSec, value);
  const title = `against ${base.runId} (${base.engineVersion}): ${formatNumber(base.throughputOpsSec)} ops/s at ${base.threads} threads`;
  return el("td", { class: "num", "data-baseline": String(change ?? ""), title }, changeText(change));
}

export function changeText(change: number | null): string {
  if (change === null) return "–";
  const rounded = Number((change * 100).toFixed(1));
  return rounded === 0 ? "0.0 %" : `${rounded > 0 ? "+" : ""}${formatNumber(rounded, 1)} %`;
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

/** The looks of a chart's series, no two alike (palette.ts distinctLooks): the engine's colour, published or measured. */
export function looksFor(series: readonly { engine: string; source: RunSource }[]): SeriesLook[] {
  return distinctLooks(
    series.map((s, i) => ({ colour: engineColour(s.engine, i), published: s.source.kind === "published" })),
  );
}

/**
 * A legend whose items fit: each cut to the chart's width (Chart.js draws an item whole and the canvas cut seed 002's
 * 150-character labels on the left, engine names and all), the whole label on hover in the chart's aria-label.
 */
export function fittedLegend(filter?: (text: string) => boolean) {
  return {
    position: "bottom" as const,
    labels: {
      generateLabels: (chart: Chart) =>
        Chart.defaults.plugins.legend.labels
          .generateLabels(chart)
          .map((item) => ({ ...item, text: fitLabel(item.text, charsIn(chart.width - 60)) })),
      ...(filter ? { filter: (item: { text: string }) => filter(item.text) } : {}),
    },
  };
}

/** A percentage of a ratio without "-0 %": rounded first, so a change under half a unit reads 0 %. */
export function percentText(ratio: number | null | undefined, digits = 0): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return "–";
  const rounded = Number((ratio * 100).toFixed(digits));
  return `${formatNumber(rounded === 0 ? 0 : rounded, digits)} %`;
}

/** "1 run", "3 runs". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? word : many}`;
}

/** An axis of thread counts: log 2 with a tick at each count that was run (1, 2, 4 … 512), never 3, 5, 15. */
export function threadAxis(title: string, threads: readonly number[]) {
  const ticks = [...new Set(threads)].sort((a, b) => a - b);
  return {
    type: "logarithmic" as const,
    title: axisTitle(title),
    min: ticks[0],
    max: ticks[ticks.length - 1],
    afterBuildTicks: (axis: { ticks: { value: number }[] }) => void (axis.ticks = ticks.map((value) => ({ value }))),
    ticks: { autoSkip: false, callback: (v: number | string) => String(v) },
  };
}
