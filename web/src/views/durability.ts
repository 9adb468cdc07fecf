/** Durability: throughput and p99 per preset per engine (seed 004), published figures beside ours. */
import type { ChartConfiguration } from "chart.js";
import { PRESETS } from "../../../model/presets.js";
import { allInOrder, fetchDurability, fetchPublishedLatency, type DurabilityCell, type PublishedLatencyCell } from "../api.js";
import { toCsv } from "../csv.js";
import { el, filterSelect, message } from "../ui.js";
import type { View } from "../view.js";
import { axisTitle, lookFor, seriesLabel } from "./common.js";

/** One series per engine, source and scenario (named when the cells span several): each preset's bar is one cell. */
function groupBySeries(cells: readonly DurabilityCell[]): Map<string, DurabilityCell[]> {
  const scenarios = new Set(cells.map((c) => c.scenario)).size > 1;
  const groups = new Map<string, DurabilityCell[]>();
  for (const c of cells) {
    const key = scenarios ? `${seriesLabel(c.engine, c.source)} · ${c.scenario}` : seriesLabel(c.engine, c.source);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return groups;
}

export const durabilityView: View = {
  title: "Durability",
  async render(ctx) {
    const p = ctx.state.params;
    const [{ cells: all, operations: measuredOps }, publishedAll] = await allInOrder([fetchDurability({ scenario: p.scenario }), fetchPublishedLatency()]);
    // Seed 004's published p99 tables join the latency chart as outlined bars (they have no throughput figures).
    const published = publishedAll.filter((c) => p.scenario === undefined || c.scenario === p.scenario);
    const operations = [...new Set([...measuredOps, ...published.map((c) => c.operation)])];
    const op = p.op ?? (operations.includes("UPDATE") ? "UPDATE" : operations[0]);
    // One workload at a time (a bar mixing workloads A and B would be no configuration): the one asked for, else A.
    const workloads = [...new Set([...all.map((c) => c.workload), ...published.map((c) => c.workload)])].filter((w) => w !== "").sort();
    const workload = p.workload ?? (workloads.includes("a") ? "a" : workloads[0]);
    // Presets are compared at one cluster size: the one asked for, else the smallest (seed 004 ran single servers).
    const ofWorkload = all.filter((c) => c.workload === workload);
    const publishedOfWorkload = published.filter((c) => c.workload === workload);
    const nodeCounts = [...new Set([...ofWorkload.map((c) => c.nodes), ...publishedOfWorkload.map((c) => c.nodes)])].sort((a, b) => a - b);
    const nodes = p.nodes !== undefined ? Number(p.nodes) : nodeCounts[0];
    const cells = ofWorkload.filter((c) => c.nodes === nodes);
    const publishedHere = publishedOfWorkload.filter((c) => c.nodes === nodes && c.operation === op);
    ctx.controls.append(
      el(
        "form",
        { class: "filters" },
        filterSelect("workload", "workload", workloads, workload, (v) => ctx.setParams({ workload: v }), null),
        filterSelect("nodes", "data nodes", nodeCounts.map(String), nodes === undefined ? undefined : String(nodes), (v) => ctx.setParams({ nodes: v }), null),
        filterSelect("op", "p99 of", operations, op, (v) => ctx.setParams({ op: v }), null),
      ),
    );
    if (cells.length === 0 && publishedHere.length === 0) {
      ctx.controls.append(message("No durability results for these filters."));
      return;
    }
    const groups = groupBySeries(cells);
    const presets = [...PRESETS];
    const note =
      `${nodes} data node${nodes === 1 ? "" : "s"}. Each run at its peak phase (the highest throughput over its thread counts, as seed 004 raised threads ` +
      "until throughput stopped rising), averaged over repeats; latency from those phases. Outlined bars: published figures, cited in the legend. " +
      "A missing bar is a preset without a result (seed 004: Couchbase has no balanced configuration).";
    type Bars = { label: string; data: (number | null)[]; printed?: (string | null)[]; backgroundColor: string; borderColor: string; borderWidth: number; borderDash?: number[] };
    const build = (id: string, title: string, yTitle: string, log: boolean, value: (c: DurabilityCell) => number | null, extra: Bars[] = [], extraNote = "") => {
      const measured: Bars[] = [...groups.entries()].map(([label, list], i) => {
        const first = list[0]!;
        const look = lookFor(first.engine, first.source, i);
        return {
          label,
          data: presets.map((preset) => {
            const c = list.find((x) => x.preset === preset);
            return c ? value(c) : null;
          }),
          backgroundColor: look.backgroundColor,
          borderColor: look.borderColor,
          borderWidth: first.source.kind === "published" ? 2 : 1,
          borderDash: look.borderDash,
        };
      });
      const datasets = [...measured, ...extra];
      const config = {
        type: "bar",
        data: { labels: presets, datasets: datasets.map(({ printed: _printed, ...d }) => d) },
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
        config: config as unknown as ChartConfiguration,
        // Published cells keep their printed text ("<1ms"), measured ones their value.
        csv: () => toCsv(["series", "preset", yTitle], datasets.flatMap((d) => presets.map((preset, j) => [d.label, preset, d.printed?.[j] ?? d.data[j] ?? null]))),
        note: note + extraNote,
      });
    };
    if (cells.length) build("durability-throughput", "Throughput per preset", "throughput (ops/s)", false, (c) => c.throughputOpsSec);
    if (op) {
      const byEngine = new Map<string, PublishedLatencyCell[]>();
      for (const c of publishedHere) byEngine.set(c.engine, [...(byEngine.get(c.engine) ?? []), c]);
      const publishedBars: Bars[] = [...byEngine.values()].map((list, i) => {
        const first = list[0]!;
        const look = lookFor(first.engine, first.source, groups.size + i);
        const at = (preset: string) => list.find((c) => c.preset === preset);
        return {
          label: seriesLabel(first.engine, first.source),
          data: presets.map((preset) => at(preset)?.ms ?? null),
          printed: presets.map((preset) => at(preset)?.printed ?? null),
          backgroundColor: look.backgroundColor,
          borderColor: look.borderColor,
          borderWidth: 2,
          borderDash: look.borderDash,
        };
      });
      const bound = publishedHere.some((c) => c.below) ? ' Seed 004 prints some p99s as "<1ms": drawn at 1 ms, an upper bound.' : "";
      build("durability-p99", `p99 ${op} latency per preset`, `p99 ${op} (ms)`, true, (c) => (c.p99Us[op] === undefined ? null : c.p99Us[op]! / 1000), publishedBars, bound);
    }
  },
};
