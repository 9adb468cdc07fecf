/**
 * The measured runs of a study, as its page states them beside the paper's figures: the scale each ran at (its
 * records against the paper's), the machine (against the paper's), the stand-in engine if any, the load, the verdict
 * and why. A local run of a study (npm start's first benchmark) is read as what it is: a small cell on one machine.
 */
import { scaleOf } from "../../../model/local-cell.js";
import type { ScenarioSpec } from "../../../model/scenario.js";
import type { RunRow } from "../api.js";
import { el, formatNumber } from "../ui.js";
import { plural } from "./common.js";

/** "scale 0.0005 (10,000 of 20,000,000 records)", or "records not stated". */
export function scaleText(spec: ScenarioSpec | undefined, r: Pick<RunRow, "records" | "nodes">): string {
  if (!spec || r.records === null) return "records not stated";
  const s = scaleOf(spec, r.nodes, r.records);
  const full = spec.records.total ?? (spec.records.perNode ?? 0) * r.nodes;
  return s === null
    ? "–"
    : `scale ${Number(s.toPrecision(2))} (${formatNumber(r.records)} of ${formatNumber(full)} records)`;
}

/** "local machine (the paper: 2x Xeon X5675 …)" or "i4i.4xlarge (the paper: …)". */
export function machineText(spec: ScenarioSpec | undefined, r: Pick<RunRow, "instanceTypes">): string {
  const here =
    r.instanceTypes.data === "local"
      ? "this one machine (database, client and dashboard together)"
      : `${r.instanceTypes.data} data, ${r.instanceTypes.client} client`;
  const paper = spec?.dataNode.original ?? spec?.dataNode.instanceType;
  return paper ? `${here}; the paper: ${paper}` : here;
}

/** The load a run's headline phase ran at: threads, and the target when one was set. */
export function loadText(r: Pick<RunRow, "peak">): string {
  const p = r.peak;
  if (!p) return "–";
  return `${p.threads} threads${p.target === null ? "" : ` at ${formatNumber(p.target)} ops/s`}`;
}

/** One line a chart's legend can carry for the measured runs of a study: how they differ from the paper's. */
export function measuredCaption(spec: ScenarioSpec | undefined, runs: readonly RunRow[]): string {
  if (runs.length === 0) return "";
  const scales = [...new Set(runs.map((r) => scaleText(spec, r).replace(/ \(.*$/, "")))];
  const local = runs.some((r) => r.instanceTypes.data === "local");
  return `measured${local ? " here" : ""}, ${scales.join(" / ")}`;
}

export function measuredRunsTable(spec: ScenarioSpec | undefined, runs: readonly RunRow[], total: number): HTMLElement {
  const head = ["run", "engine", "preset", "scale", "machine", "load at its peak", "verdict", "started", "finished"];
  const rows = runs.map((r) =>
    el(
      "tr",
      { "data-measured-run": r.id },
      el("td", { class: "mono" }, r.id),
      el("td", {}, `${r.engine} ${r.engineVersion}${r.standIn ? ` (stand-in: ${r.standIn})` : ""}`),
      el("td", {}, r.preset),
      el("td", { "data-scale": String(r.records ?? "") }, scaleText(spec, r)),
      el("td", {}, machineText(spec, r)),
      el("td", {}, loadText(r)),
      el(
        "td",
        { class: `verdict ${r.verdict}`, "data-verdict": r.verdict, title: r.reasons.join("\n") },
        `${r.verdict}${r.reasons.length ? `: ${r.reasons.slice(0, 3).join("; ")}` : ""}`,
      ),
      el("td", {}, r.startedAt.slice(0, 16).replace("T", " ")),
      el("td", {}, r.finishedAt ? r.finishedAt.slice(0, 16).replace("T", " ") : "–"),
    ),
  );
  return el(
    "div",
    { class: "measured-runs" },
    el("h3", {}, `Measured runs of this study (${plural(total, "run")})`),
    el(
      "p",
      { class: "note" },
      "Drawn beside the paper's figures as solid series. Read each at its scale and on its machine: a run at a small scale on one machine " +
        "shares its cores between YCSB and the database, its numbers are that machine's; the study's own stack (stacks/) runs it at the paper's size.",
    ),
    el(
      "table",
      { class: "measured" },
      el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows),
    ),
  );
}
