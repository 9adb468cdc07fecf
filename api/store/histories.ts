import { CHANGE_POINT_DEFAULTS, findChangePoints } from "../../model/change-points.js";
import {
  againstNoise,
  changeFrom,
  configurationId,
  configurationOf,
  type HistoryOrder,
  historyOrder,
  type RunConfiguration,
} from "../../model/history.js";
import type { Db } from "../db/client.js";
import { noteWrite, recordWrite } from "./data-version.js";
import type { Touched } from "./touched.js";

/** A pin or unpin changes the baselines and the regressions measured against them. */
const BASELINES: Touched = { runs: [], baselines: true };

import { type RunFilters, runWhere } from "./queries/filters.js";
import { HISTORY_RUN, type HistoryRun, historyWindowRuns } from "./queries/history-runs.js";
import { runPeak } from "./queries/run-peak.js";

/** Each workload a run measured, at its peak load level, mean over its valid repeats (runPeak). */
function workloadsOf(run: HistoryRun) {
  const workloads = [
    ...new Set(run.phases.filter((p) => p.kind === "workload" && p.workload).map((p) => p.workload!)),
  ].sort();
  return workloads.flatMap((workload) => {
    const peak = runPeak(run.phases, workload, "valid");
    return peak && peak.throughput.mean !== null ? [{ workload, peak }] : [];
  });
}

export const REGRESSION_METHOD =
  `E-Divisive means (Matteson & James 2014) over each configuration's runs in order, significance by Student's t-test ` +
  `between the two sides (as Otava/Hunter, Fleming et al. 2023) at p <= ${CHANGE_POINT_DEFAULTS.maxPValue} after a Bonferroni factor for the splits tried; ` +
  `each run's value: its workload at its peak load level, mean over its valid repeats`;

/**
 * Each configuration's history per workload (measured, not quarantined runs; with `last`, each configuration's newest
 * `last` of them), ordered by time or engine version, its
 * change points (model/change-points.ts) with the versions either side, and the difference of each run to the
 * configuration's baseline where one is pinned.
 */
export async function regressions(db: Db, f: RunFilters, order: HistoryOrder, last?: number) {
  const [runs, baselines] = await Promise.all([
    last
      ? historyWindowRuns(db, f, last)
      : db.run.findMany({ where: runWhere({ ...f, source: "measured", quarantined: "exclude" }), select: HISTORY_RUN }),
    db.baseline.findMany({ select: { configuration: true, runId: true } }),
  ]);
  const baselineOf = new Map(baselines.map((b) => [b.configuration, b.runId]));
  const histories = new Map<
    string,
    {
      configuration: RunConfiguration;
      workload: string;
      runs: { run: HistoryRun; peak: NonNullable<ReturnType<typeof runPeak>> }[];
    }
  >();
  for (const run of runs) {
    const configuration = configurationOf(run);
    for (const { workload, peak } of workloadsOf(run)) {
      if (f.workload && workload !== f.workload) continue;
      const key = `${configurationId(configuration)}|${workload}`;
      const h = histories.get(key) ?? { configuration, workload, runs: [] };
      h.runs.push({ run, peak });
      histories.set(key, h);
    }
  }
  const out = [...histories.values()].map((h) => {
    const ordered = historyOrder(
      h.runs.map((r) => ({
        ...r,
        id: r.run.id,
        startedAt: r.run.startedAt.toISOString(),
        engineVersion: r.run.engineVersion,
      })),
      order,
    );
    const values = ordered.map((r) => r.peak.throughput.mean!);
    const id = configurationId(h.configuration);
    const baselineRunId = baselineOf.get(id) ?? null;
    const baseline = baselineRunId ? ordered.find((r) => r.id === baselineRunId) : undefined;
    const changes = findChangePoints(values).map((c) => ({
      index: c.index,
      runId: ordered[c.index]!.id,
      previousRunId: ordered[c.index - 1]!.id,
      fromVersion: ordered[c.index - 1]!.engineVersion,
      toVersion: ordered[c.index]!.engineVersion,
      meanBefore: c.meanBefore,
      meanAfter: c.meanAfter,
      change: c.change,
      pValue: c.pValue,
      // Throughput: lower after the change is a regression.
      kind: c.meanAfter < c.meanBefore ? ("regression" as const) : ("improvement" as const),
    }));
    return {
      configuration: h.configuration,
      configurationId: id,
      workload: h.workload,
      runs: ordered.map((r) => ({
        id: r.id,
        startedAt: r.startedAt,
        engineVersion: r.engineVersion,
        verdict: r.run.verdict,
        phase: r.peak.phase,
        threads: r.peak.threads,
        throughput: r.peak.throughput,
        changeFromBaseline: changeFrom(baseline?.peak.throughput.mean, r.peak.throughput.mean),
        againstBaseline: baseline ? againstNoise(baseline.peak.throughput, r.peak.throughput).verdict : null,
      })),
      changes,
      baseline: baselineRunId
        ? { runId: baselineRunId, throughputOpsSec: baseline?.peak.throughput.mean ?? null }
        : null,
    };
  });
  out.sort(
    (a, b) =>
      b.changes.length - a.changes.length ||
      a.configurationId.localeCompare(b.configurationId) ||
      a.workload.localeCompare(b.workload),
  );
  return { order, method: REGRESSION_METHOD, histories: out };
}

/** Every pinned baseline with its run's version, start and each workload's peak (the views' difference to it). */
export async function listBaselines(db: Db) {
  const rows = await db.baseline.findMany({
    orderBy: { configuration: "asc" },
    select: { configuration: true, runId: true, note: true, pinnedAt: true, run: { select: HISTORY_RUN } },
  });
  return {
    baselines: rows.map((b) => ({
      configurationId: b.configuration,
      configuration: configurationOf(b.run),
      runId: b.runId,
      note: b.note,
      pinnedAt: b.pinnedAt.toISOString(),
      engineVersion: b.run.engineVersion,
      startedAt: b.run.startedAt.toISOString(),
      workloads: workloadsOf(b.run).map((w) => ({
        workload: w.workload,
        phase: w.peak.phase,
        threads: w.peak.threads,
        throughput: w.peak.throughput,
      })),
    })),
  };
}

export type PinOutcome =
  | { status: "done"; configurationId: string; runId: string; replaced: string | null }
  | { status: "missing" }
  | { status: "published" }
  | { status: "not-baseline" };

/** Pins a measured run as its configuration's baseline (replacing the one pinned before), or unpins it. */
export async function pinBaseline(db: Db, runId: string, note: string | null): Promise<PinOutcome> {
  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      scenario: true,
      engine: true,
      preset: true,
      nodes: true,
      dataInstanceType: true,
      source: { select: { kind: true } },
    },
  });
  if (!run) return { status: "missing" };
  if (run.source.kind !== "measured") return { status: "published" };
  const id = configurationId(configurationOf(run));
  const before = await db.baseline.findUnique({ where: { configuration: id }, select: { runId: true } });
  await db.$transaction([
    db.baseline.deleteMany({ where: { OR: [{ configuration: id }, { runId }] } }),
    db.baseline.create({ data: { configuration: id, runId, note } }),
    recordWrite(db, BASELINES),
  ]);
  noteWrite(db, BASELINES);
  return {
    status: "done",
    configurationId: id,
    runId,
    replaced: before && before.runId !== runId ? before.runId : null,
  };
}

export async function unpinBaseline(db: Db, runId: string): Promise<PinOutcome> {
  const b = await db.baseline.findUnique({ where: { runId }, select: { configuration: true } });
  if (!b) return (await db.run.count({ where: { id: runId } })) ? { status: "not-baseline" } : { status: "missing" };
  await db.$transaction([db.baseline.delete({ where: { runId } }), recordWrite(db, BASELINES)]);
  noteWrite(db, BASELINES);
  return { status: "done", configurationId: b.configuration, runId, replaced: null };
}
