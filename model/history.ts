/**
 * A configuration's history: the runs of one deployment (scenario, engine, preset, cluster size, instance type) over
 * time or engine version, whatever version each ran. Its runs are compared with each other (change points,
 * model/change-points.ts) and with the run pinned as its baseline. Pure.
 */

export interface RunConfiguration {
  scenario: string;
  engine: string;
  preset: string;
  nodes: number;
  instanceType: string;
}

export function configurationOf(run: {
  scenario: string;
  engine: string;
  preset: string;
  nodes: number;
  dataInstanceType: string;
}): RunConfiguration {
  return {
    scenario: run.scenario,
    engine: run.engine,
    preset: run.preset,
    nodes: run.nodes,
    instanceType: run.dataInstanceType,
  };
}

/** A stable text id of a configuration (the baselines' key): its fields in a fixed order. */
export function configurationId(c: RunConfiguration): string {
  return JSON.stringify([c.scenario, c.engine, c.preset, c.nodes, c.instanceType]);
}

export function configurationLabel(c: RunConfiguration): string {
  return `${c.scenario} · ${c.engine} ${c.preset} ${c.nodes}n ${c.instanceType}`;
}

/**
 * Engine versions in release order: numeric parts compared as numbers ("5.0.10" after "5.0.9"), text parts as text,
 * a pre-release ("5.1.0-beta1") before its release.
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.\-+_]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i], pb[i]];
    if (x === undefined) return typeof y === "string" ? 1 : -1;
    if (y === undefined) return typeof x === "string" ? -1 : 1;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (typeof x === "number") return 1;
    if (typeof y === "number") return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

export type HistoryOrder = "time" | "version";

/** Runs in history order: by start time, or by engine version then start time. */
export function historyOrder<T extends { startedAt: string; engineVersion: string; id: string }>(
  runs: readonly T[],
  order: HistoryOrder,
): T[] {
  const byTime = (a: T, b: T) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id);
  return [...runs].sort(
    order === "version" ? (a, b) => compareVersions(a.engineVersion, b.engineVersion) || byTime(a, b) : byTime,
  );
}

/** The change of a value against the baseline's, as a fraction (-0.12 = 12 % lower); null without a positive baseline. */
export function changeFrom(baseline: number | null | undefined, value: number | null | undefined): number | null {
  if (baseline === null || baseline === undefined || value === null || value === undefined || !(baseline > 0))
    return null;
  return (value - baseline) / baseline;
}

/**
 * A difference between two means with 95% CIs (each over its repeats) and whether it exceeds the run-to-run noise:
 * the two half-widths combined as for a difference of independent means (sqrt(h1^2 + h2^2)). Unknown noise (a
 * single repeat on either side) says so rather than guessing.
 */
export function againstNoise(
  base: { mean: number | null; ci95: { halfWidth: number } | null },
  other: { mean: number | null; ci95: { halfWidth: number } | null },
): { change: number | null; noise: number | null; verdict: "exceeds noise" | "within noise" | "noise unknown" } {
  const change = changeFrom(base.mean, other.mean);
  if (change === null || !base.ci95 || !other.ci95 || base.mean === null)
    return { change, noise: null, verdict: "noise unknown" };
  const noise = Math.hypot(base.ci95.halfWidth, other.ci95.halfWidth) / base.mean;
  return { change, noise, verdict: Math.abs(change) > noise ? "exceeds noise" : "within noise" };
}

/** A pinned baseline as GET /baselines answers it: its run, configuration and each workload's peak. */
export interface PinnedBaseline {
  runId: string;
  engineVersion: string;
  configuration: RunConfiguration;
  workloads: readonly { workload: string; threads: number; throughput: { mean: number | null } }[];
}

/** A configuration's baseline for one workload: the run pinned and that workload's peak. */
export interface BaselinePeak {
  runId: string;
  engineVersion: string;
  threads: number;
  throughputOpsSec: number;
}

/**
 * The baseline of a configuration for one workload, for views whose series are drawn per scenario, engine, preset and
 * cluster size. The instance type is matched when given; without it a single baseline across instance types is
 * taken, and several (the same cluster on two machine types) match none rather than an arbitrary one.
 */
export function baselineFor(
  baselines: readonly PinnedBaseline[],
  c: Omit<RunConfiguration, "instanceType"> & { instanceType?: string },
  workload: string | null | undefined,
): BaselinePeak | undefined {
  const same = baselines.filter(
    (b) =>
      b.configuration.scenario === c.scenario &&
      b.configuration.engine === c.engine &&
      b.configuration.preset === c.preset &&
      b.configuration.nodes === c.nodes &&
      (c.instanceType === undefined || b.configuration.instanceType === c.instanceType),
  );
  if (same.length !== 1) return undefined;
  const b = same[0]!;
  const w = b.workloads.find((x) => x.workload === workload);
  if (!w || w.throughput.mean === null) return undefined;
  return { runId: b.runId, engineVersion: b.engineVersion, threads: w.threads, throughputOpsSec: w.throughput.mean };
}
