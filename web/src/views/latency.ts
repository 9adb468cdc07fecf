/** Latency distribution: HDR percentile spectrum on a log axis, and a latency histogram like seed 004's. */
import type { ChartConfiguration } from "chart.js";
import { histogramBars, percentileSpectrum, spectrumTickLabel } from "../analysis.js";
import { seriesToCsv, toCsv } from "../csv.js";
import { seriesColour, seriesLook } from "../palette.js";
import { el, filterSelect, message } from "../ui.js";
import type { View } from "../view.js";
import { axisTitle, DENSE } from "./common.js";
import { pickRunAndPhase } from "./run-picker.js";

export const latencyView: View = {
  title: "Latency distribution",
  async render(ctx) {
    const picked = await pickRunAndPhase(ctx);
    if (!picked) return;
    const { detail, phase, series } = picked;
    const ops = Object.keys(phase.operations).filter(
      (o) => phase.operations[o]!.count > 0 || Object.keys(phase.operations[o]!.percentilesUs).length > 0,
    );
    const chosen = ctx.state.params.op;
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("op", "operation", ops, chosen, (v) => ctx.setParams({ op: v }), "all"),
      ),
    );
    // CLEANUP (closing the DB binding) is no database latency: drawn only when asked for.
    const shown = chosen ? ops.filter((o) => o === chosen) : ops.filter((o) => o !== "CLEANUP");
    const published = detail.run.source.kind === "published";

    // The whole spectrum from the merged HDR histograms where the API has them, else the percentiles YCSB printed.
    const spectrumOf = (op: string) => {
      const merged = series.latency[op];
      if (merged)
        return {
          points: percentileSpectrum(Object.fromEntries(merged.spectrum.map((q) => [String(q.percentile), q.valueUs]))),
          method: "merged-hdr (full spectrum)",
        };
      return {
        points: percentileSpectrum(phase.operations[op]!.percentilesUs),
        method: phase.operations[op]!.percentileMethod,
      };
    };
    const spectra = shown.map((op, i) => ({ op, i, ...spectrumOf(op) })).filter((s) => s.points.length > 0);
    if (spectra.length) {
      const config: ChartConfiguration<"line", { x: number; y: number }[]> = {
        type: "line",
        data: {
          datasets: spectra.map((s) => ({
            label: s.op,
            data: s.points.map((q) => ({ x: q.x, y: q.y })),
            ...seriesLook(seriesColour(s.i), published),
            borderWidth: 2,
          })),
        },
        options: {
          ...DENSE,
          maintainAspectRatio: false,
          scales: {
            x: {
              type: "logarithmic",
              min: 1,
              title: axisTitle("percentile"),
              ticks: { callback: (v) => (Math.log10(Number(v)) % 1 === 0 ? spectrumTickLabel(Number(v)) : "") },
            },
            y: { type: "logarithmic", title: axisTitle("latency (ms)") },
          },
          plugins: { legend: { position: "bottom" } },
        },
      };
      ctx.chart({
        id: "latency-spectrum",
        title: `Latency by percentile · ${detail.run.id} · ${phase.name}`,
        config: config as unknown as ChartConfiguration,
        csv: () =>
          toCsv(
            ["operation", "percentile", "latency_ms"],
            spectra.flatMap((s) => s.points.map((q) => [s.op, q.label, q.y])),
          ),
        note: `HdrHistogram percentile spectrum: x is 1/(1-p), so 90 %, 99 %, 99.9 % are evenly spaced. Percentiles: ${[...new Set(spectra.map((s) => s.method))].join(", ")}.`,
      });
    }

    // YCSB's own histogram buckets where it printed them (measurementtype=histogram), else 1 ms buckets of the merged HDR histograms.
    const bucketsOf = (op: string) =>
      series.histograms[op]?.length
        ? { buckets: series.histograms[op]!, hdr: false }
        : { buckets: series.latency[op]?.buckets ?? [], hdr: true };
    const histos = shown
      .map((op, i) => ({ op, i, ...bucketsOf(op) }))
      .map((h) => ({ ...h, bars: histogramBars(h.buckets) }))
      .filter((h) => h.bars.length > 0);
    if (histos.length) {
      const config: ChartConfiguration<"line", { x: number; y: number }[]> = {
        type: "line",
        data: {
          datasets: histos.map((h) => ({
            label: h.op,
            data: h.bars.map((b) => ({ x: b.fromMs, y: b.count })),
            ...seriesLook(seriesColour(h.i), published),
            borderWidth: 1,
            pointRadius: 2,
            stepped: "before" as const,
          })),
        },
        options: {
          ...DENSE,
          maintainAspectRatio: false,
          scales: {
            x: { type: "linear", title: axisTitle("latency (ms)") },
            y: { type: "logarithmic", title: axisTitle("operations (log scale)") },
          },
          plugins: { legend: { position: "bottom" } },
        },
      };
      ctx.chart({
        id: "latency-histogram",
        title: `Latency histogram · ${phase.name}`,
        config: config as unknown as ChartConfiguration,
        csv: () =>
          seriesToCsv(
            "latency_ms",
            "operations",
            histos.map((h) => ({ label: h.op, points: h.bars.map((b) => ({ x: b.bucket, y: b.count })) })),
          ),
        note:
          "As in seed 004: x is latency in milliseconds, y the number of operations (log scale). " +
          (histos.some((h) => h.hdr)
            ? "Buckets of 1 ms from the clients' merged HDR histograms, as YCSB's histogram measurement prints them."
            : "Buckets as YCSB printed them (measurementtype=histogram)."),
      });
    } else {
      ctx.details.append(
        message(
          "No latency histogram for this phase: it has neither HDR histograms from every client nor YCSB histogram buckets.",
        ),
      );
    }
    if (!spectra.length && !histos.length) ctx.details.append(message("This phase has no latency percentiles."));
  },
};
