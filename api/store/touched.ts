/**
 * What a write touched, and which answers it can change: the cache drops only those (api/plugins/app/response-cache.ts).
 * A write records the runs it changed with the facts the read filters select by (api/store/queries/filters.ts); an
 * answer depends on some runs, on the runs its filters select, on the published tables, on baselines, or on anything.
 * Conservative by construction: when in doubt an answer is dropped (a preset matches the run's and any of its phases').
 */
import { phaseWorkload } from "../../model/aggregate/rules.js";
import { phasePreset } from "../../model/presets.js";
import type { ResultDocument } from "../../model/result-document.js";
import type { RunFilters } from "./queries/filters.js";

/** A run a write changed, with every value a read filter may select it by. */
export interface TouchedRun {
  id: string;
  scenario: string;
  engine: string;
  engineVersion: string;
  /** The run's preset and its phases'. */
  presets: string[];
  nodes: number;
  /** Data and client instance types. */
  instanceTypes: string[];
  sourceKind: string;
  startedAt: string;
  /** Its phases' workloads as stored (a load's is "load"). */
  workloads: string[];
}

export interface Touched {
  runs: TouchedRun[];
  /** The seeds' tables (the reference loader). */
  reference?: boolean;
  /** A baseline pinned or unpinned. */
  baselines?: boolean;
  /** Anything (an import of a whole export): every answer goes. */
  everything?: boolean;
}

/** What an answer depends on. */
export type Dependency =
  | { on: "anything" }
  | { on: "runs"; ids: readonly string[] }
  | { on: "filters"; filters: RunFilters; baselines?: boolean }
  | { on: "reference" };

export function runMatches(f: RunFilters, r: TouchedRun): boolean {
  if (f.engine && r.engine !== f.engine) return false;
  if (f.version && r.engineVersion !== f.version) return false;
  if (f.preset && !r.presets.includes(f.preset)) return false;
  if (f.nodes && r.nodes !== f.nodes) return false;
  if (f.scenario && r.scenario !== f.scenario) return false;
  if (f.instanceType && !r.instanceTypes.includes(f.instanceType)) return false;
  if (f.source && r.sourceKind !== f.source) return false;
  if (f.workload && !r.workloads.includes(f.workload)) return false;
  const at = Date.parse(r.startedAt);
  if (f.from && at < Date.parse(f.from)) return false;
  if (f.to && at > Date.parse(f.to)) return false;
  return true;
}

/** Whether a write that touched `t` can change an answer that depends on `d`. */
export function affects(d: Dependency, t: Touched): boolean {
  if (t.everything) return true;
  switch (d.on) {
    case "anything":
      return true;
    case "reference":
      return t.reference === true;
    case "runs":
      return t.runs.some((r) => d.ids.includes(r.id));
    case "filters":
      return (d.baselines === true && t.baselines === true) || t.runs.some((r) => runMatches(d.filters, r));
  }
}

/** The runs of these documents (the ones a write stored), merged per run. */
export function touchedByDocuments(
  docs: readonly ResultDocument[],
  sourceKind: (d: ResultDocument) => string,
): TouchedRun[] {
  const runs = new Map<string, TouchedRun>();
  for (const d of docs) {
    const r = runs.get(d.run.id) ?? {
      id: d.run.id,
      scenario: d.run.scenario,
      engine: d.run.engine,
      engineVersion: d.run.engineVersion,
      presets: [d.run.preset],
      nodes: d.run.nodes,
      instanceTypes: [d.run.instanceTypes.data, d.run.instanceTypes.client],
      sourceKind: sourceKind(d),
      startedAt: new Date(d.run.startedAt).toISOString(),
      workloads: [],
    };
    const preset = phasePreset(d.run.preset, d.phase.properties);
    if (!r.presets.includes(preset)) r.presets.push(preset);
    const workload = phaseWorkload(d.phase);
    if (workload !== null && !r.workloads.includes(workload)) r.workloads.push(workload);
    runs.set(r.id, r);
  }
  return [...runs.values()];
}
