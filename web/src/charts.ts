/**
 * Chart.js glue: selective registration (Chart.js "Integration: bundlers"), one Chart per chart id,
 * updated in place with chart.update() and destroyed with the view. Every chart gets PNG and CSV export,
 * and is exposed on window.__charts so browser tests read the drawn series.
 */

import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
} from "chart.js";
import { type PointVerdict, verdictLines } from "./verdicts.js";

/** A 95% confidence interval drawn around a point or bar (null: none, e.g. a single repeat). */
export type ErrorBar = { low: number; high: number } | null;

/**
 * Each point's CI over repeats as a whisker with caps, from the dataset's own `errorBars` (index-aligned with its
 * data): vertical on value-up charts, horizontal on bar charts laid sideways (indexAxis "y").
 */
const errorBarsPlugin = {
  id: "errorBars",
  afterDatasetsDraw(chart: Chart) {
    const g = chart.ctx;
    const sideways = (chart.options as { indexAxis?: string }).indexAxis === "y";
    chart.data.datasets.forEach((d, i) => {
      const bars = (d as { errorBars?: ErrorBar[] }).errorBars;
      if (!bars || !chart.isDatasetVisible(i)) return;
      const meta = chart.getDatasetMeta(i);
      const scale = chart.scales[(sideways ? meta.xAxisID : meta.yAxisID) ?? (sideways ? "x" : "y")];
      if (!scale) return;
      g.save();
      const colour = Array.isArray(d.borderColor) ? undefined : d.borderColor;
      g.strokeStyle = typeof colour === "string" ? colour : "#222";
      g.lineWidth = 1.5;
      meta.data.forEach((el, j) => {
        const b = bars[j];
        if (!b) return;
        const [a, z] = [scale.getPixelForValue(b.low), scale.getPixelForValue(b.high)];
        g.beginPath();
        if (sideways) {
          g.moveTo(a, el.y), g.lineTo(z, el.y);
          for (const x of [a, z]) g.moveTo(x, el.y - 4), g.lineTo(x, el.y + 4);
        } else {
          g.moveTo(el.x, a), g.lineTo(el.x, z);
          for (const y of [a, z]) g.moveTo(el.x - 4, y), g.lineTo(el.x + 4, y);
        }
        g.stroke();
      });
      g.restore();
    });
  },
};

Chart.register(
  errorBarsPlugin,
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
);

// Every chart's hover names the verdict and reasons of a point that stands on a warning or invalid phase (verdicts.ts).
Chart.defaults.plugins.tooltip.callbacks.afterLabel = (item) => {
  const verdicts = (item.dataset as { verdicts?: (PointVerdict | null)[] }).verdicts;
  return verdictLines(verdicts?.[item.dataIndex]);
};

declare global {
  interface Window {
    __charts: Record<string, Chart>;
    /** Set by main.ts after each render settles: tests wait on it. */
    __viewReady?: { view: string; search: string; at: number };
  }
}

export interface ChartSpec {
  /** Stable id: the key in window.__charts and the file name of exports. */
  id: string;
  title: string;
  config: ChartConfiguration;
  /** The chart's data as CSV (csv.ts), for the export button. */
  csv: () => string;
  /** One line under the chart: what is marked and where a number comes from. */
  note?: string;
}

interface Mounted {
  chart: Chart;
  figure: HTMLElement;
  spec: ChartSpec;
}

const mounted = new Map<string, Mounted>();

/** The view and its filters, printed under the title of an exported PNG (main.ts sets it on every render). */
let exportCaption = "";
export function setExportCaption(text: string): void {
  exportCaption = text;
}

const EXPORT_FONT = 'system-ui, "DejaVu Sans", sans-serif';

/**
 * The chart as a PNG a report can use: a white background (the canvas itself is transparent, dark on a dark slide),
 * the chart's title and the view's filters above it, the plot below. At the chart's own pixel ratio.
 */
export function exportImage(chart: Chart, title: string, caption: string, note = ""): string {
  const source = chart.canvas;
  const scale = source.width / Math.max(1, source.clientWidth || source.width);
  const pad = Math.round(12 * scale);
  const titlePx = Math.round(16 * scale);
  const captionPx = Math.round(12 * scale);
  const out = document.createElement("canvas");
  // The note under the chart (unequal loads, verdicts, what is left out) goes into the image too: a PNG in a report
  // must not lose the caution the page shows.
  const noteLines = noteLinesFor(note, out, source.width, captionPx);
  out.width = source.width + 2 * pad;
  out.height = source.height + 3 * pad + titlePx + captionPx + noteLines.length * Math.round(captionPx * 1.35);
  const g = out.getContext("2d")!;
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, out.width, out.height);
  g.fillStyle = "#222222";
  g.textBaseline = "top";
  g.font = `600 ${titlePx}px ${EXPORT_FONT}`;
  g.fillText(title, pad, pad, out.width - 2 * pad);
  g.fillStyle = "#555555";
  g.font = `${captionPx}px ${EXPORT_FONT}`;
  g.fillText(caption, pad, pad + titlePx + Math.round(pad / 2), out.width - 2 * pad);
  g.drawImage(source, pad, 2 * pad + titlePx + captionPx);
  g.fillStyle = "#555555";
  g.font = `${captionPx}px ${EXPORT_FONT}`;
  noteLines.forEach((line, i) => {
    g.fillText(line, pad, 2 * pad + titlePx + captionPx + source.height + i * Math.round(captionPx * 1.35));
  });
  return out.toDataURL("image/png");
}

/** The note as lines that fit the image's width (measured in the export font). */
function noteLinesFor(note: string, canvas: HTMLCanvasElement, width: number, px: number): string[] {
  const g = canvas.getContext("2d");
  if (!note.trim() || !g) return [];
  g.font = `${px}px ${EXPORT_FONT}`;
  const lines: string[] = [];
  let line = "";
  for (const word of note.trim().split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (g.measureText(next).width > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** What a screen reader says for a chart: its title and the series it draws. */
function chartLabel(spec: ChartSpec): string {
  const labels = spec.config.data.datasets.map((d) => String(d.label ?? "")).filter((l) => l !== "");
  const shown = labels.slice(0, 8).join("; ");
  return `${spec.title}. ${labels.length} series${labels.length ? `: ${shown}${labels.length > 8 ? "; …" : ""}` : ""}.${spec.note ? ` ${spec.note}` : ""}`;
}

function registry(): Record<string, Chart> {
  if (!window.__charts) window.__charts = {};
  return window.__charts;
}

function download(name: string, href: string): void {
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

function buildFigure(spec: ChartSpec): { figure: HTMLElement; canvas: HTMLCanvasElement } {
  const figure = document.createElement("figure");
  figure.className = "chart";
  figure.dataset.chartId = spec.id;
  const header = document.createElement("figcaption");
  const title = document.createElement("span");
  title.className = "chart-title";
  const tools = document.createElement("span");
  tools.className = "chart-tools";
  const png = document.createElement("button");
  png.type = "button";
  png.textContent = "PNG";
  png.dataset.export = "png";
  const csv = document.createElement("button");
  csv.type = "button";
  csv.textContent = "CSV";
  csv.dataset.export = "csv";
  tools.append(png, csv);
  header.append(title, tools);
  const box = document.createElement("div");
  box.className = "chart-box";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  box.append(canvas);
  const note = document.createElement("p");
  note.className = "chart-note";
  figure.append(header, box, note);
  png.addEventListener("click", () => {
    const m = mounted.get(spec.id);
    if (m) download(`${spec.id}.png`, exportImage(m.chart, m.spec.title, exportCaption, m.spec.note ?? ""));
  });
  csv.addEventListener("click", () => {
    const m = mounted.get(spec.id);
    if (!m) return;
    const url = URL.createObjectURL(new Blob([m.spec.csv()], { type: "text/csv" }));
    download(`${spec.id}.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  return { figure, canvas };
}

/** Legend lines beyond which the plot area would shrink: the box grows instead, so the plot keeps its height. */
const LEGEND_LINES_IN_BASE_HEIGHT = 3;
const BASE_HEIGHT_PX = 380;
const LEGEND_LINE_PX = 24;
const MAX_EXTRA_LEGEND_LINES = 40;

function describe(figure: HTMLElement, spec: ChartSpec): void {
  figure.querySelector(".chart-title")!.textContent = spec.title;
  figure.querySelector("canvas")!.setAttribute("aria-label", chartLabel(spec));
  figure.querySelector('[data-export="png"]')!.setAttribute("aria-label", `export ${spec.title} as PNG`);
  figure.querySelector('[data-export="csv"]')!.setAttribute("aria-label", `export ${spec.title} as CSV`);
  figure.querySelector(".chart-note")!.textContent = spec.note ?? "";
  // Published series carry long citations, one legend line each at most widths: every one stays visible.
  const datasets = spec.config.data.datasets.length;
  const extra = Math.max(0, datasets - LEGEND_LINES_IN_BASE_HEIGHT) * LEGEND_LINE_PX;
  (figure.querySelector(".chart-box") as HTMLElement).style.height =
    `${BASE_HEIGHT_PX + Math.min(extra, MAX_EXTRA_LEGEND_LINES * LEGEND_LINE_PX)}px`;
}

const chartType = (spec: ChartSpec): unknown => (spec.config as { type?: unknown }).type;

/** Draws a chart into `container`, or updates the existing one with the same id in place. */
export function upsertChart(container: HTMLElement, spec: ChartSpec): Chart {
  const existing = mounted.get(spec.id);
  if (existing && chartType(existing.spec) === chartType(spec) && container.contains(existing.figure)) {
    existing.chart.data = spec.config.data;
    existing.chart.options = spec.config.options ?? {};
    existing.chart.update();
    existing.spec = spec;
    describe(existing.figure, spec);
    return existing.chart;
  }
  if (existing) destroyChart(spec.id);
  const { figure, canvas } = buildFigure(spec);
  describe(figure, spec);
  container.append(figure);
  const chart = new Chart(canvas, spec.config);
  mounted.set(spec.id, { chart, figure, spec });
  registry()[spec.id] = chart;
  return chart;
}

export function destroyChart(id: string): void {
  const m = mounted.get(id);
  if (!m) return;
  m.chart.destroy();
  m.figure.remove();
  mounted.delete(id);
  delete registry()[id];
}

/** Destroys every chart whose id is not kept (a view re-rendering with fewer charts). */
export function destroyChartsExcept(keep: ReadonlySet<string>): void {
  for (const id of [...mounted.keys()]) if (!keep.has(id)) destroyChart(id);
}

export function destroyAllCharts(): void {
  destroyChartsExcept(new Set());
}
