/** Durability: throughput and p99 per preset per engine (seed 004), published figures beside ours. */
import type { ChartConfiguration } from "chart.js";
import { PRESETS } from "../../../model/presets.js";
import { fetchDurability, type DurabilityCell } from "../api.js";
import { toCsv } from "../csv.js";
import { el, filterSelect, message } from "../ui.js";
import type { View } from "../view.js";
import { axisTitle, lookFor, seriesLabel } from "./common.js";

function groupBySeries(cells: readonly DurabilityCell[]): Map<string, DurabilityCell[]> {
  const groups = new Map<string, DurabilityCell[]>();
  for (const c of cells) {
    const key = seriesLabel(c.engine, c.source);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return groups;
}

export const durabilityView: View = {
  title: "Durability",
  async render(ctx) {
    const p = ctx.state.params;
    const { cells, workloads, operations } = await fetchDurability({ workload: p.workload, scenario: p.scenario });
    const op = p.op ?? (operations.includes("UPDATE") ? "UPDATE" : operations[0]);
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("workload", "workload", workloads, p.workload, (v) => ctx.setParams({ workload: v })),
        filterSelect("op", "p99 of", operations, op, (v) => ctx.setParams({ op: v }), null),
      ),
    );
    if (cells.length === 0) {
      ctx.controls.append(message("No durability results for these filters."));
      return;
    }
    const groups = groupBySeries(cells);
    const presets = [...PRESETS];
    const build = (id: string, title: string, yTitle: string, log: boolean, value: (c: DurabilityCell) => number | null) => {
      const datasets = [...groups.entries()].map(([label, list], i) => {
        const first = list[0]!;
        const look = lookFor(first.engine, first.source, i);
        return {
          label,
          data: presets.map((preset) => {
            const c = list.find((x) => x.preset === preset);
            return c ? value(c) : null;
          }) as number[],
          backgroundColor: look.backgroundColor,
          borderColor: look.borderColor,
          borderWidth: first.source.kind === "published" ? 2 : 1,
          borderDash: look.borderDash,
        };
      });
      const config: ChartConfiguration<"bar"> = {
        type: "bar",
        data: { labels: presets, datasets },
        options: {
          animation: false,
          maintainAspectRatio: false,
          scales: { x: { title: axisTitle("durability preset") }, y: { type: log ? "logarithmic" : "linear", title: axisTitle(yTitle) } },
          plugins: { legend: { position: "bottom" } },
        },
      };
      ctx.chart({
        id,
        title,
        config: config as ChartConfiguration,
        csv: () => toCsv(["series", "preset", yTitle], datasets.flatMap((d) => presets.map((preset, j) => [d.label, preset, d.data[j] ?? null]))),
        note: "Outlined bars: published figures of seed 004 (United Software Associates 2015); a missing bar is a preset without a result (seed 004: Couchbase has no balanced configuration).",
      });
    };
    build("durability-throughput", "Throughput per preset", "throughput (ops/s)", false, (c) => c.throughputOpsSec);
    if (op) build("durability-p99", `p99 ${op} latency per preset`, `p99 ${op} (ms)`, true, (c) => (c.p99Us[op] === undefined ? null : c.p99Us[op]! / 1000));
  },
};
