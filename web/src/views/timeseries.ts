/** Phase time series from the status lines (ops/s per client over elapsed time), dips marked. */
import type { ChartConfiguration, ChartDataset } from "chart.js";
import { DIP_RULE, findThroughputDips, type ThroughputDip } from "../../../model/throughput-dips.js";
import { seriesToCsv } from "../csv.js";
import { DIP_COLOUR, seriesColour } from "../palette.js";
import { el, formatNumber, message } from "../ui.js";
import type { View } from "../view.js";
import { axisTitle, DENSE } from "./common.js";
import { pickRunAndPhase } from "./run-picker.js";

type Pt = { x: number; y: number };

export const timeseriesView: View = {
  title: "Phase time series",
  async render(ctx) {
    const picked = await pickRunAndPhase(ctx);
    if (!picked) return;
    const { detail, phase } = picked;
    const series = picked.series.status.filter((s) => s.elapsedSec.length > 0);
    if (series.length === 0) {
      ctx.details.append(message("No status lines for this phase (YCSB prints them with -s)."));
      return;
    }
    const lines: ChartDataset<"line", Pt[]>[] = [];
    const dips: (Pt & { client: number })[] = [];
    const intervals: (ThroughputDip & { client: number })[] = [];
    series.forEach((s, i) => {
      const points: Pt[] = [];
      s.opsPerSec.forEach((y, k) => {
        if (y !== null) points.push({ x: s.elapsedSec[k]!, y });
      });
      const colour = seriesColour(i);
      lines.push({
        label: `client ${s.clientIndex}`,
        data: points,
        borderColor: colour,
        backgroundColor: colour,
        pointRadius: 0,
        borderWidth: 1.5,
      });
      for (const dip of findThroughputDips(s.elapsedSec, s.opsPerSec)) {
        intervals.push({ ...dip, client: s.clientIndex });
        for (const d of dip.lines) dips.push({ x: s.elapsedSec[d]!, y: s.opsPerSec[d] ?? 0, client: s.clientIndex });
      }
    });
    const dipSet: ChartDataset<"line", Pt[]> = {
      label: `dips (${intervals.length})`,
      data: dips.map(({ x, y }) => ({ x, y })),
      borderColor: DIP_COLOUR,
      backgroundColor: DIP_COLOUR,
      pointStyle: "crossRot",
      pointRadius: 7,
      borderWidth: 2,
      showLine: false,
    };
    const config: ChartConfiguration<"line", Pt[]> = {
      type: "line",
      data: { datasets: [dipSet, ...lines] },
      options: {
        ...DENSE,
        maintainAspectRatio: false,
        scales: {
          x: { type: "linear", title: axisTitle("elapsed (s)") },
          y: { type: "linear", beginAtZero: true, title: axisTitle("throughput (ops/s, per client)") },
        },
        plugins: { legend: { position: "bottom" } },
      },
    };
    ctx.chart({
      id: "timeseries",
      title: `Throughput over time · ${detail.run.id} · ${phase.name}`,
      config: config as unknown as ChartConfiguration,
      csv: () =>
        seriesToCsv(
          "elapsed_s",
          "ops_per_sec",
          [dipSet, ...lines].map((d) => ({ label: String(d.label), points: d.data })),
        ),
      note: `A dip (marked on its status lines) is ${DIP_RULE}, the rule the run's validity verdict applies.`,
    });
    if (intervals.length)
      ctx.details.append(
        el(
          "table",
          { class: "dips" },
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", {}, "client"),
              el("th", {}, "from (s)"),
              el("th", {}, "to (s)"),
              el("th", {}, "lowest ops/s"),
            ),
          ),
          el(
            "tbody",
            {},
            ...intervals.map((d) =>
              el(
                "tr",
                {},
                el("td", {}, String(d.client)),
                el("td", { class: "num" }, formatNumber(d.fromSec, 1)),
                el("td", { class: "num" }, formatNumber(d.toSec, 1)),
                el("td", { class: "num" }, formatNumber(d.minOpsPerSec)),
              ),
            ),
          ),
        ),
      );
  },
};
