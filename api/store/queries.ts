import {
  addLeftOut,
  isComplete,
  aggregateOperation,
  aggregatePhase,
  analyseScaling,
  configurationKey,
  mergeHistogramsOrNothing,
  millisecondBuckets,
  overRepeats,
  peakPerRepeat,
  percentileSpectrum,
  selectPhases,
  worstVerdict,
  type ClientInput,
  type ClientOperationInput,
  type CountablePhase,
  type RepeatedPhase,
  type Include,
  type LeftOut,
  type OverRepeats,
  type SpectrumPoint,
  type PhaseAggregate,
  type ScalingAnalysis,
} from "../../model/aggregate/index.js";
import { cellOf, twoWayAnova, type AnovaTable, type CellSummary } from "../../model/anova.js";
import { repeatStatistics, type RepeatStatistics } from "../../model/statistics.js";
import { phaseNameWithoutRepeat } from "../../model/plan.js";
import { LIMITS } from "../../model/result-limits.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/open.js";
import { MEASURED_SOURCE } from "./ingest.js";
import { storedBuckets, storedColumn, storedCount, storedLatency, storedNumber, storedObject, storedPercentiles, storedPhaseThroughput, storedReasons, storedRuntime, storedThroughput } from "./stored-values.js";

/** Filters shared by the read endpoints (all optional, all exact matches except the date range). */
export interface RunFilters {
  engine?: string;
  version?: string;
  preset?: string;
  nodes?: number;
  workload?: string;
  instanceType?: string;
  scenario?: string;
  source?: "measured" | "published";
  from?: string;
  to?: string;
  /** GET /runs only: the run's worst verdict (model/aggregate/rules.ts worstVerdict, kept by ingest). */
  verdict?: "valid" | "warning" | "invalid";
  /** Aggregates over phases: "valid" (default) leaves out phases judged invalid and says how many; "all" counts them. */
  include?: Include;
  /** GET /runs only: quarantined runs listed too (default), left out, or only they. */
  quarantined?: "include" | "exclude" | "only";
}

export function runWhere(f: RunFilters): Prisma.RunWhereInput {
  return {
    ...(f.engine ? { engine: f.engine } : {}),
    ...(f.version ? { engineVersion: f.version } : {}),
    ...(f.preset ? { preset: f.preset } : {}),
    ...(f.nodes ? { nodes: f.nodes } : {}),
    ...(f.scenario ? { scenario: f.scenario } : {}),
    ...(f.instanceType ? { OR: [{ dataInstanceType: f.instanceType }, { clientInstanceType: f.instanceType }] } : {}),
    // The measured source by its id: a filter through the sources relation made every listing scan all runs.
    ...(f.source === "measured" ? { sourceId: MEASURED_SOURCE } : f.source ? { source: { kind: f.source } } : {}),
    ...(f.workload ? { phases: { some: { workload: f.workload } } } : {}),
    ...(f.from || f.to ? { startedAt: { ...(f.from ? { gte: new Date(f.from) } : {}), ...(f.to ? { lte: new Date(f.to) } : {}) } } : {}),
    ...(f.verdict ? { verdict: f.verdict } : {}),
    ...(f.quarantined === "exclude" ? { quarantinedAt: null } : f.quarantined === "only" ? { NOT: { quarantinedAt: null } } : {}),
  };
}

export async function listRuns(db: Db, f: RunFilters, page: { limit: number; offset: number }) {
  const where = runWhere(f);
  const [total, rows] = await Promise.all([
    db.run.count({ where }),
    db.run.findMany({
      where,
      orderBy: [{ startedAt: "desc" }, { id: "asc" }],
      take: page.limit,
      skip: page.offset,
      include: {
        source: true,
        // The explorer's verdict reasons, workloads and headline throughput (the dashboard, issue 7).
        phases: {
          orderBy: { index: "asc" },
          select: PEAK_FIELDS,
        },
      },
    }),
  ]);
  // The verdicts' reasons in one query over the page, only where there are any (most clients have none): loading every
  // client of every listed run to find them made a page of 1,000 runs several times slower.
  const reasons = new Map<string, unknown[]>();
  if (rows.length) {
    const found = await db.$queryRaw<{ runId: string; reasons: unknown }[]>`
      SELECT c.run_id AS "runId", v.reasons FROM client_results c
      JOIN phases p ON p.id = c.phase_id JOIN validity_verdicts v ON v.client_result_id = c.id
      WHERE c.run_id IN (${Prisma.join(rows.map((r) => r.id))}) AND v.reasons <> '[]'::jsonb
      ORDER BY c.run_id, p.index, c.id`;
    for (const r of found) pushTo(reasons, r.runId, r.reasons);
  }
  // The phase count from the phases loaded anyway: a relation _count grouped every phase of the database (seconds at 100,000 runs).
  return { total, runs: rows.map((r) => ({ ...runSummary(r), phases: r.phases.length, verdict: r.verdict, ...runDetails(r.phases, reasons.get(r.id) ?? []) })) };
}

/** The reasons behind the run's verdicts, its workloads, and its headline throughput (runPeak). */
function runDetails(phases: PeakPhase[], clientReasons: readonly unknown[]) {
  const reasons = [...new Set(clientReasons.flatMap((r) => storedReasons(r)))];
  const peak = runPeak(phases);
  return {
    reasons,
    workloads: [...new Set(phases.flatMap((p) => (p.workload && p.kind !== "load" ? [p.workload] : [])))],
    throughputOpsSec: peak?.throughput.mean ?? null,
    peak,
  };
}

/** The phase fields a run's headline needs (phases ordered by index). */
export const PEAK_FIELDS = { name: true, index: true, kind: true, workload: true, throughputSum: true, clientsReported: true, clients: true, threadsPerClient: true, target: true, repeat: true, verdict: true } as const;
export type PeakPhase = Prisma.PhaseGetPayload<{ select: typeof PEAK_FIELDS }>;

/**
 * A run's headline throughput: a workload (its first with a complete phase unless named), each repeat at its peak
 * load level, the mean over repeats (the rules of every aggregate view, so the runs list and compare show the same
 * number for a run). Invalid phases count here unless `include` is "valid": the runs list shows the verdict beside it.
 */
export function runPeak(phases: readonly PeakPhase[], workloadAsked?: string, include: Include = "all") {
  const work = phases.filter((p) => p.kind === "workload").sort((a, b) => a.index - b.index);
  const workload = workloadAsked ?? work.find((p) => isComplete(p))?.workload;
  if (workload === undefined || workload === null) return null;
  const ofWorkload = work.filter((p) => p.workload === workload).map((p) => ({ ...p, runId: "", throughputOpsSec: storedPhaseThroughput(p.throughputSum) ?? 0 }));
  const { peaks, throughput } = atPeakOverRepeats(ofWorkload, include);
  const first = peaks[0];
  if (!first || throughput.mean === null) return null;
  return { workload, phase: first.name, threads: first.threadsPerClient * first.clients, target: storedNumber(first.target, LIMITS.throughputOpsSec), throughput };
}

type RunRow = Prisma.RunGetPayload<{ include: { source: true } }>;
function runSummary(r: RunRow) {
  return {
    id: r.id,
    scenario: r.scenario,
    engine: r.engine,
    engineVersion: r.engineVersion,
    preset: r.preset,
    nodes: r.nodes,
    instanceTypes: { data: r.dataInstanceType, client: r.clientInstanceType },
    replication: r.replication,
    repeat: r.repeat,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    standIn: r.standIn,
    source: { kind: r.source.kind, citation: r.source.citation, seed: r.source.seed, table: r.referenceTable },
    quarantine: r.quarantinedAt ? { reason: r.quarantineReason ?? "", at: r.quarantinedAt.toISOString() } : null,
  };
}

/** Loads the client results (with operations) of the given phases and aggregates each phase. */
async function phaseAggregates(db: Db, where: Prisma.PhaseWhereInput) {
  const phases = await db.phase.findMany({
    where,
    orderBy: [{ runId: "asc" }, { index: "asc" }],
    include: {
      clientResults: {
        select: {
          clientIndex: true,
          throughputOpsSec: true,
          runtimeMs: true,
          validity: { select: { verdict: true } },
          operations: { select: { operation: true, count: true, avgUs: true, minUs: true, maxUs: true, percentilesUs: true, hdrHistogram: true } },
        },
      },
    },
  });
  return phases.map((p) => {
    // A client whose throughput or runtime is outside the contract is left out: its phase then reads as incomplete.
    const clients: ClientInput[] = p.clientResults.flatMap((c) => {
      const throughputOpsSec = storedThroughput(c.throughputOpsSec);
      const runtimeMs = storedRuntime(c.runtimeMs);
      if (throughputOpsSec === null || runtimeMs === null) return [];
      return [{ clientIndex: c.clientIndex, throughputOpsSec, runtimeMs, operations: Object.fromEntries(c.operations.flatMap((o) => storedOperation(o))) }];
    });
    return {
      runId: p.runId,
      phase: { name: p.name, index: p.index, kind: p.kind, workload: p.workload, threadsPerClient: p.threadsPerClient, clients: p.clients, target: storedNumber(p.target, LIMITS.throughputOpsSec), repeat: p.repeat, operationCount: p.operationCount },
      verdict: worstVerdict(p.clientResults.map((c) => c.validity?.verdict)),
      aggregate: aggregatePhase(clients, p.clients) as PhaseAggregate,
    };
  });
}

/** One stored operation group as the aggregation reads it; a group without a count in range is left out. */
function storedOperation(o: { operation: string; count: unknown; avgUs: unknown; minUs: unknown; maxUs: unknown; percentilesUs: unknown; hdrHistogram?: string | null }): [string, ClientOperationInput][] {
  const count = storedCount(o.count);
  if (count === null) return [];
  const hdrHistogram = typeof o.hdrHistogram === "string" && o.hdrHistogram.length > 0 ? o.hdrHistogram : null;
  return [[o.operation, { count, avgUs: storedLatency(o.avgUs), minUs: storedLatency(o.minUs), maxUs: storedLatency(o.maxUs), percentilesUs: storedPercentiles(o.percentilesUs), hdrHistogram }]];
}

export async function getRun(db: Db, id: string) {
  const run = await db.run.findUnique({ where: { id }, include: { source: true } });
  if (!run) return null;
  return { run: runSummary(run), phases: await phaseAggregates(db, { runId: id }) };
}

export async function compareRuns(db: Db, ids: readonly string[]) {
  const runs = await db.run.findMany({ where: { id: { in: [...ids] } }, include: { source: true } });
  const phases = await phaseAggregates(db, { runId: { in: [...ids] } });
  return {
    missing: ids.filter((id) => !runs.some((r) => r.id === id)),
    runs: ids.flatMap((id) => {
      const r = runs.find((x) => x.id === id);
      return r ? [{ run: runSummary(r), phases: phases.filter((p) => p.runId === id) }] : [];
    }),
  };
}

/** One row per phase with the totals ingest keeps by the model's rules (scales to 100k client results). */
export interface PhaseSummaryRow {
  phaseId: number;
  runId: string;
  phase: string;
  kind: string;
  workload: string | null;
  threadsPerClient: number;
  clients: number;
  clientsReported: number;
  target: number | null;
  /** The phase's repeat within its run (a plan's "-r<N>"); `runRepeat` the run's own. */
  repeat: number;
  runRepeat: number;
  operationCount: number | null;
  operationCountPer: string | null;
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  referenceTable: string | null;
  throughputOpsSec: number;
  runtimeMs: number;
  verdict: string;
}

function sqlFilters(f: RunFilters, extra: Prisma.Sql[] = []): Prisma.Sql {
  const c: Prisma.Sql[] = [...extra];
  if (f.engine) c.push(Prisma.sql`r.engine = ${f.engine}`);
  if (f.version) c.push(Prisma.sql`r.engine_version = ${f.version}`);
  if (f.preset) c.push(Prisma.sql`p.preset = ${f.preset}`);
  if (f.nodes) c.push(Prisma.sql`r.nodes = ${f.nodes}`);
  if (f.scenario) c.push(Prisma.sql`r.scenario = ${f.scenario}`);
  if (f.instanceType) c.push(Prisma.sql`(r.data_instance_type = ${f.instanceType} OR r.client_instance_type = ${f.instanceType})`);
  if (f.source) c.push(Prisma.sql`s.kind = ${f.source}`);
  if (f.workload) c.push(Prisma.sql`p.workload = ${f.workload}`);
  if (f.from) c.push(Prisma.sql`r.started_at >= ${new Date(f.from)}`);
  if (f.to) c.push(Prisma.sql`r.started_at <= ${new Date(f.to)}`);
  return c.length ? Prisma.sql`WHERE ${Prisma.join(c, " AND ")}` : Prisma.empty;
}

/**
 * Phases whose stored totals are within the contract (model/result-limits.ts); any other (NaN or Infinity sums, zero
 * clients, written by hand or by an older version) is left out of the aggregate views rather than failing them.
 * NaN compares above every number in Postgres, so each upper bound excludes it too.
 */
const SANE_PHASE = Prisma.sql`p.throughput_sum >= 0 AND p.throughput_sum <= ${LIMITS.throughputOpsSec * LIMITS.clients}
  AND p.runtime_ms >= 0 AND p.runtime_ms <= ${LIMITS.runtimeMs} AND p.clients >= 1 AND p.threads_per_client >= 1`;

/** A quarantined run (POST /runs/:id/quarantine) is in no aggregate. */
const NOT_QUARANTINED = Prisma.sql`r.quarantined_at IS NULL`;

/** Measured phases (load and workload) with the totals ingest keeps: no scan of client_results here. */
export async function phaseSummaries(db: Db, f: RunFilters, extra: Prisma.Sql[] = []): Promise<PhaseSummaryRow[]> {
  const rows = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT p.id AS "phaseId", p.run_id AS "runId", p.name AS phase, p.kind, p.workload, p.threads_per_client AS "threadsPerClient",
           p.clients, p.target, p.repeat, r.repeat AS "runRepeat", p.operation_count AS "operationCount", p.operation_count_per AS "operationCountPer",
           r.scenario, r.engine, r.engine_version AS "engineVersion", p.preset, r.nodes,
           s.kind AS "sourceKind", s.id AS "sourceId", s.citation, r.reference_table AS "referenceTable",
           p.throughput_sum AS "throughputOpsSec", p.clients_reported AS "clientsReported", p.runtime_ms AS "runtimeMs", p.verdict
    FROM phases p
    JOIN runs r ON r.id = p.run_id
    JOIN sources s ON s.id = r.source_id
    ${sqlFilters(f, [Prisma.sql`p.clients_reported > 0`, SANE_PHASE, NOT_QUARANTINED, ...extra])}
    ORDER BY r.engine, r.nodes, p.run_id, p.index`;
  return rows.map((r) => ({
    ...r,
    phaseId: Number(r.phaseId),
    nodes: Number(r.nodes),
    repeat: Number(r.repeat),
    runRepeat: Number(r.runRepeat),
    operationCount: r.operationCount === null ? null : Number(r.operationCount),
    throughputOpsSec: storedPhaseThroughput(r.throughputOpsSec) ?? 0,
    runtimeMs: storedRuntime(r.runtimeMs) ?? 0,
    clientsReported: Number(r.clientsReported),
    target: storedNumber(r.target, LIMITS.throughputOpsSec),
  })) as unknown as PhaseSummaryRow[];
}

/** Count, count-weighted mean, and p99 from the clients' merged HDR histograms (else the max of theirs, labelled). */
function latencyOf(inputs: readonly ClientOperationInput[]) {
  const a = aggregateOperation(inputs, [99]);
  return { count: a.count, avgUs: a.avgUs, p99Us: a.percentilesUs["99"] ?? null, p99Method: a.percentileMethod };
}

/** latencyOf each operation over every client of these phases (repeats pooled). */
function latencyOfPhases(phases: readonly { phaseId: number }[], ops: Map<number, (ClientOperationInput & { operation: string })[]>) {
  const byOperation = new Map<string, ClientOperationInput[]>();
  for (const p of phases) for (const o of ops.get(Number(p.phaseId)) ?? []) pushTo(byOperation, o.operation, o);
  return Object.fromEntries([...byOperation].map(([op, inputs]) => [op, latencyOf(inputs)]));
}

/** Appends to the list under a key (in place: grouping thousands of rows must not copy each list again). */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Groups rows by a key made of some of their fields, in first-seen order. */
function groupBy<T>(rows: readonly T[], key: (r: T) => unknown[]): { key: unknown[]; rows: T[] }[] {
  const groups = new Map<string, { key: unknown[]; rows: T[] }>();
  for (const r of rows) {
    const k = key(r);
    const id = JSON.stringify(k);
    const g = groups.get(id);
    if (g) g.rows.push(r);
    else groups.set(id, { key: k, rows: [r] });
  }
  return [...groups.values()];
}

const NO_LEFT_OUT: LeftOut = { invalid: 0, incomplete: 0 };

/**
 * A configuration's result over its repeats: the phases counted (model/aggregate/rules.ts selectPhases), each repeat
 * at its peak load level (peakPerRepeat), and the mean with its 95% CI and n over those repeats. Never the best.
 */
export function atPeakOverRepeats<T extends CountablePhase & RepeatedPhase>(phases: readonly T[], include: Include | undefined) {
  const { counted, leftOut } = selectPhases(phases, include);
  const peaks = peakPerRepeat(counted);
  return { counted, leftOut, peaks, throughput: overRepeats(peaks.map((p) => p.throughputOpsSec)) };
}

export interface ScalingSeries {
  engine: string;
  workload: string | null;
  preset: string;
  scenario: string;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  operationCount: number | null;
  operationCountPer: string | null;
  points: { nodes: number; throughputOpsSec: number; throughput: OverRepeats; runs: number; phases: number; leftOut: LeftOut }[];
  leftOut: LeftOut;
  analysis: ScalingAnalysis;
}

/**
 * Throughput against nodes per engine, workload (the load is workload "load"), preset, operation count and source:
 * each repeat at its peak complete phase (seed 002 raised threads until throughput stopped rising), then the mean
 * over repeats with its CI and n. A published study's figures never merge with another's or with measured runs.
 */
export async function scaling(db: Db, f: RunFilters): Promise<{ series: ScalingSeries[]; leftOut: LeftOut }> {
  // One row per series and cluster size, its phases as arrays: SQL only groups (100,000 client results are some 10,000
  // phases); which phases count and each repeat's peak are the model's rules, applied below.
  const groups = await db.$queryRaw<
    { engine: string; workload: string | null; preset: string; scenario: string; sourceKind: string; sourceId: string; citation: string | null; operationCount: number | null; operationCountPer: string | null; nodes: number; runIds: string[]; repeats: number[]; throughputs: number[]; reported: number[]; clients: number[]; verdicts: string[] }[]
  >`
    SELECT r.engine, p.workload, p.preset, r.scenario, s.kind AS "sourceKind", s.id AS "sourceId", s.citation,
           p.operation_count AS "operationCount", p.operation_count_per AS "operationCountPer", r.nodes,
           array_agg(p.run_id) AS "runIds", array_agg(p.repeat) AS repeats, array_agg(p.throughput_sum) AS throughputs,
           array_agg(p.clients_reported) AS reported, array_agg(p.clients) AS clients, array_agg(p.verdict) AS verdicts
    FROM phases p
    JOIN runs r ON r.id = p.run_id
    JOIN sources s ON s.id = r.source_id
    ${sqlFilters(f, [Prisma.sql`p.kind IN ('workload', 'load')`, Prisma.sql`p.clients_reported > 0`, SANE_PHASE, NOT_QUARANTINED])}
    GROUP BY r.engine, p.workload, p.preset, r.scenario, s.kind, s.id, s.citation, p.operation_count, p.operation_count_per, r.nodes`;
  let total = NO_LEFT_OUT;
  const series = groupBy(groups, (g) => [g.engine, g.workload, g.preset, g.scenario, g.sourceKind, g.sourceId, g.citation, g.operationCount === null ? null : Number(g.operationCount), g.operationCountPer])
    .sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)))
    .map(({ key, rows: gs }) => {
      const [engine, workload, preset, scenario, sourceKind, sourceId, citation, operationCount, operationCountPer] = key as [string, string | null, string, string, string, string, string | null, number | null, string | null];
      let leftOut = NO_LEFT_OUT;
      const points = gs
        .map((g) => {
          const phases = g.runIds.map((runId, i) => ({
            runId,
            repeat: Number(g.repeats[i]),
            throughputOpsSec: storedPhaseThroughput(g.throughputs[i]) ?? 0,
            clientsReported: Number(g.reported[i]),
            clients: Number(g.clients[i]),
            verdict: String(g.verdicts[i]),
          }));
          const agg = atPeakOverRepeats(phases, f.include);
          leftOut = addLeftOut(leftOut, agg.leftOut);
          return { nodes: Number(g.nodes), throughputOpsSec: agg.throughput.mean, throughput: agg.throughput, runs: new Set(agg.peaks.map((p) => p.runId)).size, phases: agg.counted.length, leftOut: agg.leftOut };
        })
        .filter((p): p is typeof p & { throughputOpsSec: number } => p.throughputOpsSec !== null)
        .sort((a, b) => a.nodes - b.nodes);
      total = addLeftOut(total, leftOut);
      return { engine, workload, preset, scenario, sourceKind, sourceId, citation, operationCount, operationCountPer, points, leftOut, analysis: analyseScaling(points) };
    })
    .filter((s) => s.points.length > 0);
  return { series, leftOut: total };
}

/**
 * Presets side by side per engine, workload, operation count and cluster size. A cell is each repeat at its peak
 * phase (highest throughput over its thread and target steps: seed 004's "maximum throughput"), then the mean over
 * repeats with its CI and n; its latency comes from those peak phases only (count-weighted mean; p99 from their
 * merged HDR histograms, else the max of the clients' own, labelled).
 */
export async function durability(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  let leftOut = NO_LEFT_OUT;
  const cells = groupBy(rows, (r) => [r.engine, r.workload, r.scenario, r.sourceKind, r.sourceId, r.citation, r.preset, r.nodes, r.operationCount])
    .map(({ key, rows: rs }) => ({ key: key as [string, string | null, string, string, string, string | null, string, number, number | null], phases: rs.length, ...atPeakOverRepeats(rs, f.include) }))
    .filter((c) => {
      leftOut = addLeftOut(leftOut, c.leftOut);
      return c.peaks.length > 0;
    });
  const ops = await clientOperations(db, cells.flatMap((c) => c.peaks.map((r) => r.phaseId)), mergeLimit);
  const out = cells.map(({ key, phases, peaks, throughput, leftOut: cellLeftOut }) => {
    const [engine, workload, scenario, sourceKind, sourceId, citation, preset, nodes, operationCount] = key;
    return {
      engine,
      workload,
      preset,
      nodes,
      operationCount,
      scenario,
      sourceKind,
      sourceId,
      citation,
      phases,
      runs: new Set(peaks.map((r) => r.runId)).size,
      peakThreads: [...new Set(peaks.map((r) => r.threadsPerClient * r.clients))].sort((a, b) => a - b),
      throughputOpsSec: throughput.mean,
      throughput,
      leftOut: cellLeftOut,
      // Every client of every peak phase (repeats pooled): merged HDR histograms where all have one, else max of clients.
      operations: latencyOfPhases(peaks, ops),
    };
  });
  return { rows: out, leftOut };
}

/**
 * Merging decodes every histogram: past this many client operation groups in one answer (a query over a whole
 * database), percentiles fall back to the max of the clients' own, labelled max-of-clients, so an unfiltered
 * /sweeps or /durability stays fast. A filtered view (one engine, scenario or run set) stays well under it.
 */
export const MERGE_LIMIT = 5_000;

/** Each client's operation groups of these phases by phase, with their HDR histograms unless more than MERGE_LIMIT. */
async function clientOperations(db: Db, phaseIds: readonly number[], mergeLimit: number): Promise<Map<number, (ClientOperationInput & { operation: string })[]>> {
  const out = new Map<number, (ClientOperationInput & { operation: string })[]>();
  if (phaseIds.length === 0) return out;
  const rows = await db.$queryRaw<{ id: number; phaseId: number; operation: string; count: number; avgUs: number | null; minUs: number | null; maxUs: number | null; percentilesUs: Record<string, number> }[]>`
    SELECT o.id, c.phase_id AS "phaseId", o.operation, o.count::float8 AS count, o.avg_us AS "avgUs", o.min_us AS "minUs", o.max_us AS "maxUs",
           jsonb_build_object('99', o.percentiles_us->'99') AS "percentilesUs"
    FROM client_results c JOIN operation_stats o ON o.client_result_id = c.id
    WHERE c.phase_id = ANY(${[...phaseIds]}::int[])`;
  const histograms = new Map<number, string>();
  if (rows.length > 0 && rows.length <= mergeLimit) {
    const hs = await db.$queryRaw<{ id: number; h: string }[]>`
      SELECT id, hdr_histogram AS h FROM operation_stats WHERE hdr_histogram IS NOT NULL AND id IN (${Prisma.join(rows.map((r) => r.id))})`;
    for (const h of hs) histograms.set(Number(h.id), h.h);
  }
  for (const r of rows) {
    for (const [operation, o] of storedOperation({ ...r, hdrHistogram: histograms.get(Number(r.id)) ?? null })) pushTo(out, Number(r.phaseId), { ...o, operation });
  }
  return out;
}

/**
 * The YCSB properties of these phases, for configurationKey (model/aggregate/repeats.ts). Ids go as one array
 * parameter: a bind parameter each stopped working past 32,767 (a view over 100,000 runs failed).
 */
async function phaseProperties(db: Db, rows: readonly PhaseSummaryRow[]): Promise<Map<number, Record<string, unknown>>> {
  const properties = new Map<number, Record<string, unknown>>();
  if (rows.length === 0) return properties;
  const ps = await db.$queryRaw<{ id: number; properties: Record<string, unknown> }[]>`
    SELECT id, properties FROM phases WHERE id = ANY(${rows.map((r) => r.phaseId)}::int[])`;
  for (const p of ps) properties.set(Number(p.id), storedObject(p.properties) ?? {});
  return properties;
}

/** The repeats of one configuration (model/aggregate/repeats.ts configurationKey), in the order the rows came. */
function configurations(rows: readonly PhaseSummaryRow[], properties: Map<number, Record<string, unknown>>) {
  return groupBy(rows, (r) => [configurationKey({ ...r, properties: properties.get(r.phaseId) ?? {} })]).map((g) => g.rows);
}

/**
 * Throughput, runtime and latency against total threads (threads per client x clients), one series per
 * configuration but its load level: scenario, engine and version, preset, nodes, source, workload, clients and
 * operation count (seed 003's 1k..1M operations are four series, never one line). A point is one configuration's
 * repeats (a run's "-r<N>" phases and other runs of it): throughput and runtime as mean, CI and n over the repeats
 * counted, latency from all their clients.
 */
export async function sweeps(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  const properties = await phaseProperties(db, rows);
  const points = configurations(rows, properties).map((ps) => ({ ps, ...selectPhases(ps, f.include) }));
  const ops = await clientOperations(db, points.flatMap((p) => p.counted.map((r) => r.phaseId)), mergeLimit);
  let leftOut = NO_LEFT_OUT;
  const series = groupBy(points, ({ ps: [r] }) => [r!.scenario, r!.engine, r!.engineVersion, r!.preset, r!.nodes, r!.sourceKind, r!.sourceId, r!.workload, r!.clients, r!.operationCount, r!.operationCountPer]).map(({ rows: levels }) => {
    const first = levels[0]!.ps[0]!;
    let seriesLeftOut = NO_LEFT_OUT;
    const counted = levels.filter((l) => {
      seriesLeftOut = addLeftOut(seriesLeftOut, l.leftOut);
      return l.counted.length > 0;
    });
    leftOut = addLeftOut(leftOut, seriesLeftOut);
    return {
      runId: first.runId,
      runs: [...new Set(levels.flatMap((l) => l.ps.map((p) => p.runId)))],
      scenario: first.scenario,
      engine: first.engine,
      preset: first.preset,
      nodes: first.nodes,
      workload: first.workload,
      operationCount: first.operationCount,
      operationCountPer: first.operationCountPer,
      sourceKind: first.sourceKind,
      sourceId: first.sourceId,
      engineVersion: first.engineVersion,
      leftOut: seriesLeftOut,
      points: counted
        .map(({ ps, counted: cs, leftOut: pointLeftOut }) => {
          const throughput = overRepeats(cs.map((p) => p.throughputOpsSec));
          const runtime = overRepeats(cs.map((p) => p.runtimeMs));
          return {
            phase: phaseNameWithoutRepeat(ps[0]!.phase),
            phases: cs.map((p) => p.phase),
            threads: ps[0]!.threadsPerClient * ps[0]!.clients,
            target: ps[0]!.target,
            complete: pointLeftOut.incomplete === 0,
            throughputOpsSec: throughput.mean!,
            throughput,
            runtimeMs: runtime.mean,
            runtime,
            leftOut: pointLeftOut,
            latency: latencyOfPhases(cs, ops),
          };
        })
        .sort((a, b) => a.threads - b.threads || (a.target ?? 0) - (b.target ?? 0)),
    };
  });
  return { series: series.filter((s) => s.points.length > 0), leftOut };
}

export interface RepeatGroup {
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  workload: string | null;
  /** The phase name without its repeat suffix ("a-t4" for a-t4-r0, a-t4-r1). */
  phase: string;
  threadsPerClient: number;
  clients: number;
  target: number | null;
  operationCount: number | null;
  sourceKind: string;
  sourceId: string;
  runs: string[];
  /** Each repeat: its run, its phase and what it achieved, in run then phase order. */
  repeats: { runId: string; phase: string; runRepeat: number; repeat: number; throughputOpsSec: number; verdict: string }[];
  throughput: RepeatStatistics;
  leftOut: LeftOut;
}

/**
 * Repeats of one configuration (model/aggregate/repeats.ts: same deployment, source, workload, load level and YCSB
 * properties): phases of runs that differ only in their repeat index, or repeat phases of one run ("-r<N>").
 */
export async function repeatability(db: Db, f: RunFilters): Promise<{ groups: RepeatGroup[]; leftOut: LeftOut }> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind IN ('workload', 'load')`]);
  let leftOut = NO_LEFT_OUT;
  const groups = configurations(rows, await phaseProperties(db, rows)).flatMap((rs) => {
    const { counted, leftOut: groupLeftOut } = selectPhases(rs, f.include);
    leftOut = addLeftOut(leftOut, groupLeftOut);
    if (counted.length < 2) return [];
    const first = counted[0]!;
    const repeats = counted
      .map((r) => ({ runId: r.runId, phase: r.phase, runRepeat: r.runRepeat, repeat: r.repeat, throughputOpsSec: r.throughputOpsSec, verdict: r.verdict }))
      .sort((a, b) => a.runRepeat - b.runRepeat || a.runId.localeCompare(b.runId) || a.repeat - b.repeat);
    return [
      {
        scenario: first.scenario,
        engine: first.engine,
        engineVersion: first.engineVersion,
        preset: first.preset,
        nodes: first.nodes,
        workload: first.workload,
        phase: phaseNameWithoutRepeat(first.phase),
        threadsPerClient: first.threadsPerClient,
        clients: first.clients,
        target: first.target,
        operationCount: first.operationCount,
        sourceKind: first.sourceKind,
        sourceId: first.sourceId,
        runs: [...new Set(counted.map((r) => r.runId))],
        repeats,
        throughput: repeatStatistics(repeats.map((r) => r.throughputOpsSec)),
        leftOut: groupLeftOut,
      },
    ];
  });
  return { groups, leftOut };
}

export interface AnovaAnalysis {
  scenario: string;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  workload: string | null;
  operationCount: number | null;
  preset: string;
  nodes: number;
  /** The cells analysed: database (engine) x total client threads, with their repeats' number and mean runtime. */
  cells: { database: string; threads: number; n: number; meanRuntimeMs: number }[];
  /** NT as one numeric regressor, as seed 003 fitted it (Table 9), and as the ten-level factor its text describes. */
  threadsNumeric: AnovaTable;
  threadsLevels: AnovaTable;
  /** The study's own Table 9 row for this workload and operation count, where the source is a published study. */
  published: { table: string; F: (number | null)[]; p: (string | null)[]; significance: string[] } | null;
  leftOut: LeftOut;
}

/**
 * Seed 003's two-way ANOVA of runtime (model/anova.ts) per scenario, source, workload, operation count, preset and
 * cluster size: database (engine) x total client threads, each cell the repeats counted (model/aggregate/rules.ts).
 * A measured cell's spread comes from its repeats' runtimes; a published table's cell is a mean of the repeats its
 * derive names (seed 003: 3), spread unknown (`withinKnown: false`: F an upper bound).
 */
export async function anova(db: Db, f: RunFilters): Promise<{ analyses: AnovaAnalysis[]; leftOut: LeftOut }> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  const properties = await phaseProperties(db, rows.filter((r) => r.sourceKind === "published"));
  const tables = await db.referenceTable.findMany({ where: { seed: { in: [...new Set(rows.filter((r) => r.sourceKind === "published").map((r) => r.sourceId.replace(/^published:/, "")))] } } });
  const meanOf = (r: PhaseSummaryRow): number => {
    const id = properties.get(r.phaseId)?.referenceTable;
    const derive = tables.find((t) => t.id === id)?.derive as { repeats?: number } | null | undefined;
    return derive?.repeats ?? 1;
  };
  let leftOut = NO_LEFT_OUT;
  const analyses = groupBy(rows, (r) => [r.scenario, r.sourceKind, r.sourceId, r.citation, r.workload, r.operationCount, r.preset, r.nodes]).flatMap(({ key, rows: rs }) => {
    const [scenario, sourceKind, sourceId, citation, workload, operationCount, preset, nodes] = key as [string, string, string, string | null, string | null, number | null, string, number];
    const { counted, leftOut: seriesLeftOut } = selectPhases(rs, f.include);
    leftOut = addLeftOut(leftOut, seriesLeftOut);
    const cells: CellSummary[] = groupBy(counted, (r) => [r.engine, r.threadsPerClient * r.clients]).map(({ key: [engine, threads], rows: ps }) =>
      sourceKind === "published"
        ? { database: engine as string, threads: threads as number, n: meanOf(ps[0]!), mean: ps[0]!.runtimeMs, withinSumSq: null }
        : cellOf(engine as string, threads as number, ps.map((p) => p.runtimeMs)),
    );
    if (new Set(cells.map((c) => c.database)).size < 2 || new Set(cells.map((c) => c.threads)).size < 2) return [];
    const seed = sourceId.replace(/^published:/, "");
    const table9 = sourceKind === "published" ? tables.find((t) => t.seed === seed && (t.derive as { metric?: string } | null)?.metric === "anova") : undefined;
    const row = table9 ? (table9.rows as (string | number | null)[][]).find((r) => String(r[0]).toLowerCase() === workload && Number(r[1]) === operationCount) : undefined;
    return [
      {
        scenario,
        sourceKind,
        sourceId,
        citation,
        workload,
        operationCount,
        preset,
        nodes,
        cells: cells.map((c) => ({ database: c.database, threads: c.threads, n: c.n, meanRuntimeMs: c.mean })).sort((a, b) => a.database.localeCompare(b.database) || a.threads - b.threads),
        threadsNumeric: twoWayAnova(cells, "numeric"),
        threadsLevels: twoWayAnova(cells, "levels"),
        published: row
          ? {
              table: table9!.tableRef,
              F: [row[2], row[5], row[8]].map((v) => (typeof v === "number" ? v : null)),
              p: [row[3], row[6], row[9]].map((v) => (v === null ? null : String(v))),
              significance: [row[4], row[7], row[10]].map((v) => String(v ?? "")),
            }
          : null,
        leftOut: seriesLeftOut,
      },
    ];
  });
  return { analyses, leftOut };
}

/** The per-client detail of one phase the dashboard plots (issue 7): status lines and latency histogram buckets. */
export async function phaseSeries(db: Db, runId: string, phase: string) {
  const p = await db.phase.findUnique({
    where: { runId_name: { runId, name: phase } },
    select: {
      name: true,
      clients: true,
      clientResults: {
        orderBy: { clientIndex: "asc" },
        select: { clientIndex: true, statusSeries: { select: { points: true } }, operations: { select: { operation: true, histogramBuckets: true, hdrHistogram: true } } },
      },
    },
  });
  if (!p) return null;
  return {
    runId,
    phase: p.name,
    clients: p.clientResults.map((c) => ({
      clientIndex: c.clientIndex,
      status: throughputColumns(c.statusSeries?.points),
      histograms: Object.fromEntries(
        c.operations.flatMap((o) => {
          const buckets = storedBuckets(o.histogramBuckets);
          return buckets ? [[o.operation, buckets]] : [];
        }),
      ),
    })),
    latency: phaseDistributions(p.clients, p.clientResults.map((c) => c.operations)),
  };
}

/**
 * The whole distribution of each operation from the clients' merged HDR histograms: only where every client of the
 * phase has one (a partial merge would understate the tail), and labelled merged-hdr.
 */
function phaseDistributions(clients: number, byClient: { operation: string; hdrHistogram: string | null }[][]) {
  const encoded = new Map<string, string[]>();
  for (const ops of byClient) for (const o of ops) if (o.hdrHistogram) pushTo(encoded, o.operation, o.hdrHistogram);
  const out: Record<string, { method: "merged-hdr"; clients: number; count: number; spectrum: SpectrumPoint[]; buckets: { bucket: string; count: number }[] }> = {};
  for (const [operation, list] of encoded) {
    if (list.length < clients || list.length < byClient.length) continue;
    const h = mergeHistogramsOrNothing(list);
    if (!h || h.totalCount === 0) continue;
    out[operation] = { method: "merged-hdr", clients: list.length, count: h.totalCount, spectrum: percentileSpectrum(h), buckets: millisecondBuckets(h) };
  }
  return out;
}

/**
 * status_series.points holds the result document's columnar statusSeries (model/status-series.ts); the dashboard
 * needs two of its columns. Rows stored before the columnar contract hold an array of points: read those too.
 */
function throughputColumns(points: unknown): { elapsedSec: number[]; opsPerSec: (number | null)[] } {
  const [elapsed, ops] = Array.isArray(points)
    ? [storedColumn(points.map((p) => storedObject(p)?.elapsedSec), LIMITS.elapsedSec), storedColumn(points.map((p) => storedObject(p)?.opsPerSec), LIMITS.throughputOpsSec)]
    : [storedColumn(storedObject(points)?.elapsedSec, LIMITS.elapsedSec), storedColumn(storedObject(points)?.opsPerSec, LIMITS.throughputOpsSec)];
  // A line without its elapsed time cannot be placed: left out, with its throughput.
  const out = { elapsedSec: [] as number[], opsPerSec: [] as (number | null)[] };
  elapsed.forEach((t, i) => {
    if (t === null) return;
    out.elapsedSec.push(t);
    out.opsPerSec.push(ops[i] ?? null);
  });
  return out;
}

/**
 * The values each filter can take and how many runs have each, from a GROUP BY over runs (a few hundred rows for
 * 100,000 runs) and the distinct workloads of phases: the dashboard's options, never a download of every run.
 */
export async function facets(db: Db) {
  const [groups, workloads, sources] = await Promise.all([
    db.$queryRaw<{ engine: string; version: string; preset: string; nodes: number; scenario: string; data: string; client: string; sourceId: string; kind: string; verdict: string; runs: number }[]>`
      SELECT r.engine, r.engine_version AS version, r.preset, r.nodes, r.scenario, r.data_instance_type AS data, r.client_instance_type AS client,
             r.source_id AS "sourceId", s.kind, r.verdict, count(*)::int AS runs
      FROM runs r JOIN sources s ON s.id = r.source_id
      GROUP BY r.engine, r.engine_version, r.preset, r.nodes, r.scenario, r.data_instance_type, r.client_instance_type, r.source_id, s.kind, r.verdict`,
    // Phases, not runs, per workload: counting distinct runs made this the slowest part of the answer.
    db.$queryRaw<{ workload: string; phases: number }[]>`
      SELECT workload, count(*)::int AS phases FROM phases WHERE workload IS NOT NULL GROUP BY workload`,
    db.source.findMany({ select: { id: true, kind: true, citation: true, seed: true } }),
  ]);
  const count = <K extends string | number>(pick: (g: (typeof groups)[number]) => K | K[]) => {
    const m = new Map<K, number>();
    for (const g of groups) for (const v of [pick(g)].flat() as K[]) m.set(v, (m.get(v) ?? 0) + Number(g.runs));
    return [...m].map(([value, runs]) => ({ value, runs })).sort((a, b) => (typeof a.value === "number" ? (a.value as number) - (b.value as number) : String(a.value).localeCompare(String(b.value), "en", { numeric: true })));
  };
  const versions = new Map<string, { engine: string; value: string; runs: number }>();
  for (const g of groups) {
    const k = `${g.engine}\u0000${g.version}`;
    const v = versions.get(k) ?? { engine: g.engine, value: g.version, runs: 0 };
    v.runs += Number(g.runs);
    versions.set(k, v);
  }
  const measured = groups.filter((g) => g.kind === "measured");
  const total = (gs: typeof groups) => gs.reduce((a, g) => a + Number(g.runs), 0);
  return {
    runs: total(groups),
    measured: total(measured),
    published: total(groups.filter((g) => g.kind === "published")),
    engines: count((g) => g.engine),
    versions: [...versions.values()].sort((a, b) => a.engine.localeCompare(b.engine) || a.value.localeCompare(b.value, "en", { numeric: true })),
    presets: count((g) => g.preset),
    nodes: count((g) => Number(g.nodes)),
    scenarios: count((g) => g.scenario),
    scenarioPresets: [...new Set(groups.map((g) => g.scenario))].sort().map((scenario) => ({ scenario, presets: [...new Set(groups.filter((g) => g.scenario === scenario).map((g) => g.preset))].sort() })),
    workloads: workloads.map((w) => ({ value: w.workload, phases: Number(w.phases) })).sort((a, b) => a.value.localeCompare(b.value)),
    instanceTypes: count((g) => [...new Set([g.data, g.client])]),
    verdicts: count((g) => g.verdict),
    sources: sources
      .map((s) => {
        const of = groups.filter((g) => g.sourceId === s.id);
        return { ...s, scenarios: [...new Set(of.map((g) => g.scenario))].sort(), runs: total(of) };
      })
      .filter((s) => s.runs > 0)
      .sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/**
 * The latest measured runs matching the filters with their headline throughput (runPeak), newest first: `limit` of
 * them and whether there are more (no count: counting every run is the slowest part of a listing).
 */
export async function timeline(db: Db, f: RunFilters, limit: number) {
  const rows = await db.run.findMany({
    where: runWhere({ ...f, source: "measured" }),
    orderBy: [{ startedAt: "desc" }, { id: "asc" }],
    take: limit + 1,
    select: { id: true, engine: true, engineVersion: true, preset: true, nodes: true, scenario: true, verdict: true, startedAt: true, phases: { select: PEAK_FIELDS } },
  });
  return {
    more: rows.length > limit,
    runs: rows.slice(0, limit).map(({ phases, startedAt, ...r }) => ({ ...r, startedAt: startedAt.toISOString(), peak: runPeak(phases) })),
  };
}
