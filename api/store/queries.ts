import { aggregateOperation, aggregatePhase, analyseScaling, configurationKey, mergeHistograms, millisecondBuckets, peakPerRun, percentileSpectrum, type ClientInput, type ClientOperationInput, type PercentileMethod, type SpectrumPoint, type PhaseAggregate, type ScalingAnalysis } from "../../model/aggregate/index.js";
import { repeatStatistics, type RepeatStatistics } from "../../model/statistics.js";
import { phaseNameWithoutRepeat } from "../../model/plan.js";
import type { StatusSeries } from "../../model/result-document.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/open.js";

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
  /** GET /runs only: the run's worst client verdict (invalid > warning > valid). */
  verdict?: "valid" | "warning" | "invalid";
}

/** Runs whose worst client verdict is the given one (a client result without a verdict counts as valid). */
function verdictWhere(verdict: RunFilters["verdict"]): Prisma.RunWhereInput {
  const any = (v: string[]): Prisma.RunWhereInput => ({ phases: { some: { clientResults: { some: { validity: { verdict: { in: v } } } } } } });
  if (verdict === "invalid") return any(["invalid"]);
  if (verdict === "warning") return { AND: [any(["warning"]), { NOT: any(["invalid"]) }] };
  if (verdict === "valid") return { NOT: any(["warning", "invalid"]) };
  return {};
}

function runWhere(f: RunFilters): Prisma.RunWhereInput {
  return {
    ...(f.engine ? { engine: f.engine } : {}),
    ...(f.version ? { engineVersion: f.version } : {}),
    ...(f.preset ? { preset: f.preset } : {}),
    ...(f.nodes ? { nodes: f.nodes } : {}),
    ...(f.scenario ? { scenario: f.scenario } : {}),
    ...(f.instanceType ? { OR: [{ dataInstanceType: f.instanceType }, { clientInstanceType: f.instanceType }] } : {}),
    ...(f.source ? { source: { kind: f.source } } : {}),
    ...(f.workload ? { phases: { some: { workload: f.workload } } } : {}),
    ...(f.from || f.to ? { startedAt: { ...(f.from ? { gte: new Date(f.from) } : {}), ...(f.to ? { lte: new Date(f.to) } : {}) } } : {}),
    ...(f.verdict ? { AND: [verdictWhere(f.verdict)] } : {}),
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
        _count: { select: { phases: true } },
        // The explorer's verdict, workloads and headline throughput (the dashboard, issue 7).
        phases: {
          orderBy: { index: "asc" },
          select: { kind: true, workload: true, clientResults: { select: { throughputOpsSec: true, validity: { select: { verdict: true, reasons: true } } } } },
        },
      },
    }),
  ]);
  return { total, runs: rows.map((r) => ({ ...runSummary(r), ...runVerdict(r.phases) })) };
}

type ListedPhase = { kind: string; workload: string | null; clientResults: { throughputOpsSec: number; validity: { verdict: string; reasons: Prisma.JsonValue } | null }[] };
/** Worst verdict over the run's client results with their reasons, its workloads, and the first workload phase's summed throughput. */
function runVerdict(phases: ListedPhase[]) {
  const results = phases.flatMap((p) => p.clientResults);
  const verdicts = results.map((c) => c.validity?.verdict ?? "valid");
  const verdict = verdicts.includes("invalid") ? "invalid" : verdicts.includes("warning") ? "warning" : "valid";
  const reasons = [...new Set(results.flatMap((c) => ((c.validity?.reasons ?? []) as { message?: string }[]).map((x) => String(x.message ?? x))))];
  const first = phases.find((p) => p.kind === "workload" && p.clientResults.length > 0);
  return {
    verdict,
    reasons,
    workloads: [...new Set(phases.flatMap((p) => (p.workload ? [p.workload] : [])))],
    throughputOpsSec: first ? first.clientResults.reduce((a, c) => a + c.throughputOpsSec, 0) : null,
  };
}

type RunRow = Prisma.RunGetPayload<{ include: { source: true } }>;
function runSummary(r: RunRow & { _count?: { phases: number } }) {
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
    phases: r._count?.phases,
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
    const clients: ClientInput[] = p.clientResults.map((c) => ({
      clientIndex: c.clientIndex,
      throughputOpsSec: c.throughputOpsSec,
      runtimeMs: c.runtimeMs,
      operations: Object.fromEntries(
        c.operations.map((o) => [
          o.operation,
          { count: Number(o.count), avgUs: o.avgUs, minUs: o.minUs, maxUs: o.maxUs, percentilesUs: o.percentilesUs as Record<string, number>, hdrHistogram: o.hdrHistogram },
        ]),
      ),
    }));
    const verdicts = p.clientResults.map((c) => c.validity?.verdict ?? "valid");
    const verdict = verdicts.includes("invalid") ? "invalid" : verdicts.includes("warning") ? "warning" : "valid";
    return {
      runId: p.runId,
      phase: { name: p.name, index: p.index, kind: p.kind, workload: p.workload, threadsPerClient: p.threadsPerClient, clients: p.clients, target: p.target },
      verdict,
      aggregate: aggregatePhase(clients, p.clients) as PhaseAggregate,
    };
  });
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

/** One row per phase: summed throughput and count-weighted latency, computed in SQL (scales to 100k client results). */
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
  scenario: string;
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  repeat: number;
  sourceKind: string;
  sourceId: string;
  citation: string | null;
  referenceTable: string | null;
  throughputOpsSec: number;
}

function sqlFilters(f: RunFilters, extra: Prisma.Sql[] = []): Prisma.Sql {
  const c: Prisma.Sql[] = [...extra];
  if (f.engine) c.push(Prisma.sql`r.engine = ${f.engine}`);
  if (f.version) c.push(Prisma.sql`r.engine_version = ${f.version}`);
  if (f.preset) c.push(Prisma.sql`r.preset = ${f.preset}`);
  if (f.nodes) c.push(Prisma.sql`r.nodes = ${f.nodes}`);
  if (f.scenario) c.push(Prisma.sql`r.scenario = ${f.scenario}`);
  if (f.instanceType) c.push(Prisma.sql`(r.data_instance_type = ${f.instanceType} OR r.client_instance_type = ${f.instanceType})`);
  if (f.source) c.push(Prisma.sql`s.kind = ${f.source}`);
  if (f.workload) c.push(Prisma.sql`p.workload = ${f.workload}`);
  if (f.from) c.push(Prisma.sql`r.started_at >= ${new Date(f.from)}`);
  if (f.to) c.push(Prisma.sql`r.started_at <= ${new Date(f.to)}`);
  return c.length ? Prisma.sql`WHERE ${Prisma.join(c, " AND ")}` : Prisma.empty;
}

export async function phaseSummaries(db: Db, f: RunFilters, extra: Prisma.Sql[] = []): Promise<PhaseSummaryRow[]> {
  // Phase totals are kept by ingest (phases.throughput_sum, clients_reported): no scan of client_results here.
  const rows = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT p.id AS "phaseId", p.run_id AS "runId", p.name AS phase, p.kind, p.workload, p.threads_per_client AS "threadsPerClient",
           p.clients, p.target, r.scenario, r.engine, r.engine_version AS "engineVersion", r.preset, r.nodes, r.repeat,
           s.kind AS "sourceKind", s.id AS "sourceId", s.citation, r.reference_table AS "referenceTable",
           p.throughput_sum AS "throughputOpsSec", p.clients_reported AS "clientsReported"
    FROM phases p
    JOIN runs r ON r.id = p.run_id
    JOIN sources s ON s.id = r.source_id
    ${sqlFilters(f, [Prisma.sql`p.clients_reported > 0`, ...extra])}
    ORDER BY r.engine, r.nodes, p.run_id, p.index`;
  return rows.map((r) => ({ ...r, throughputOpsSec: Number(r.throughputOpsSec ?? 0), clientsReported: Number(r.clientsReported) })) as unknown as PhaseSummaryRow[];
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

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export interface ScalingSeries {
  engine: string;
  workload: string | null;
  preset: string;
  sourceKind: string;
  points: { nodes: number; throughputOpsSec: number; runs: number; phases: number }[];
  analysis: ScalingAnalysis;
}

/**
 * Throughput against nodes per engine, workload, preset and source: per run the best complete phase (seed 002
 * raised threads until throughput stopped rising), then the mean over runs. Grouped in SQL: one row per run.
 */
export async function scaling(db: Db, f: RunFilters): Promise<ScalingSeries[]> {
  // One series per engine, workload, preset, scenario and source: a published study's figures never merge with
  // another study's or with measured runs (different machines, versions and methods).
  const rows = await db.$queryRaw<{ engine: string; workload: string | null; preset: string; scenario: string; sourceKind: string; sourceId: string; citation: string | null; nodes: number; best: number; phases: number }[]>`
    SELECT r.engine, p.workload, r.preset, r.scenario, s.kind AS "sourceKind", s.id AS "sourceId", s.citation, r.nodes, MAX(p.throughput_sum) AS best, COUNT(*)::int AS phases
    FROM phases p
    JOIN runs r ON r.id = p.run_id
    JOIN sources s ON s.id = r.source_id
    ${sqlFilters(f, [Prisma.sql`p.kind = 'workload'`, Prisma.sql`p.clients_reported >= p.clients`])}
    GROUP BY r.engine, p.workload, r.preset, r.scenario, s.kind, s.id, s.citation, r.nodes, p.run_id`;
  const groups = new Map<string, Map<number, { sum: number; runs: number; phases: number }>>();
  for (const r of rows) {
    const k = JSON.stringify([r.engine, r.workload, r.preset, r.scenario, r.sourceKind, r.sourceId, r.citation]);
    const byNodes = groups.get(k) ?? new Map<number, { sum: number; runs: number; phases: number }>();
    const n = byNodes.get(Number(r.nodes)) ?? { sum: 0, runs: 0, phases: 0 };
    n.sum += Number(r.best);
    n.runs += 1;
    n.phases += Number(r.phases);
    byNodes.set(Number(r.nodes), n);
    groups.set(k, byNodes);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, byNodes]) => {
      const [engine, workload, preset, scenario, sourceKind, sourceId, citation] = JSON.parse(k) as [string, string | null, string, string, string, string, string | null];
      const points = [...byNodes.entries()].sort(([a], [b]) => a - b).map(([nodes, n]) => ({ nodes, throughputOpsSec: n.sum / n.runs, runs: n.runs, phases: n.phases }));
      return { engine, workload, preset, scenario, sourceKind, sourceId, citation, points, analysis: analyseScaling(points) };
    });
}

/**
 * Presets side by side per engine, workload and cluster size. A cell is each run's peak phase (highest throughput
 * over its thread and target steps: seed 004's "maximum throughput") averaged over runs (repeats); its latency
 * comes from those peak phases only (count-weighted mean; p99 from their merged HDR histograms, else the max of the
 * clients' own, labelled).
 */
export async function durability(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const rows = (await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`])).filter((r) => r.clientsReported >= r.clients);
  const groups = new Map<string, PhaseSummaryRow[]>();
  for (const r of rows) {
    const k = JSON.stringify([r.engine, r.workload, r.scenario, r.sourceKind, r.sourceId, r.citation, r.preset, Number(r.nodes)]);
    pushTo(groups, k, r);
  }
  const cells = [...groups.entries()].map(([k, rs]) => ({ key: JSON.parse(k) as [string, string | null, string, string, string, string | null, string, number], phases: rs.length, ...peakPerRun(rs) }));
  const ops = await clientOperations(db, cells.flatMap((c) => c.peaks.map((r) => r.phaseId)), mergeLimit);
  return cells.map(({ key, phases, peaks, throughputOpsSec }) => {
    const [engine, workload, scenario, sourceKind, sourceId, citation, preset, nodes] = key;
    // Every client of every peak phase (repeats pooled): merged HDR histograms where all have one, else max of clients.
    const operations = latencyOfPhases(peaks, ops);
    return {
      engine,
      workload,
      preset,
      nodes,
      scenario,
      sourceKind,
      sourceId,
      citation,
      phases,
      runs: peaks.length,
      peakThreads: [...new Set(peaks.map((r) => r.threadsPerClient * r.clients))].sort((a, b) => a - b),
      throughputOpsSec,
      operations,
    };
  });
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
           o.percentiles_us AS "percentilesUs"
    FROM client_results c JOIN operation_stats o ON o.client_result_id = c.id
    WHERE c.phase_id IN (${Prisma.join([...phaseIds])})`;
  const histograms = new Map<number, string>();
  if (rows.length > 0 && rows.length <= mergeLimit) {
    const hs = await db.$queryRaw<{ id: number; h: string }[]>`
      SELECT id, hdr_histogram AS h FROM operation_stats WHERE hdr_histogram IS NOT NULL AND id IN (${Prisma.join(rows.map((r) => r.id))})`;
    for (const h of hs) histograms.set(Number(h.id), h.h);
  }
  for (const r of rows) {
    const id = Number(r.phaseId);
    const { id: statId, phaseId: _phase, ...o } = r;
    pushTo(out, id, { ...o, count: Number(r.count), percentilesUs: r.percentilesUs ?? {}, hdrHistogram: histograms.get(Number(statId)) ?? null });
  }
  return out;
}

/**
 * Throughput, runtime and latency against total threads (threads per client x clients), one series per run and
 * workload. A run's repeat phases of one load level ("a-t4-r0", "a-t4-r1": seed 003 ran each thread count 3 times)
 * are one point: throughput and runtime averaged over the repeats, latency from all their clients.
 */
export async function sweeps(db: Db, f: RunFilters, mergeLimit = MERGE_LIMIT) {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`]);
  const ids = rows.map((r) => Number(r.phaseId));
  const ops = await clientOperations(db, ids, mergeLimit);
  const runtime = await phaseRuntimes(db, ids);
  const groups = new Map<string, PhaseSummaryRow[]>();
  for (const r of rows) {
    const k = JSON.stringify([r.runId, r.workload]);
    pushTo(groups, k, r);
  }
  return [...groups.values()].map((rs) => {
    const levels = new Map<string, PhaseSummaryRow[]>();
    for (const r of rs) {
      const k = JSON.stringify([phaseNameWithoutRepeat(r.phase), r.threadsPerClient * r.clients, r.target]);
      pushTo(levels, k, r);
    }
    return {
      runId: rs[0]!.runId,
      engine: rs[0]!.engine,
      preset: rs[0]!.preset,
      nodes: rs[0]!.nodes,
      workload: rs[0]!.workload,
      sourceKind: rs[0]!.sourceKind,
      points: [...levels.values()]
        .map((ps) => {
          const runtimes = ps.map((p) => runtime.get(Number(p.phaseId))).filter((v): v is number => v !== undefined);
          return {
            phase: phaseNameWithoutRepeat(ps[0]!.phase),
            phases: ps.map((p) => p.phase),
            threads: ps[0]!.threadsPerClient * ps[0]!.clients,
            target: ps[0]!.target,
            complete: ps.every((p) => p.clientsReported >= p.clients),
            throughputOpsSec: mean(ps.map((p) => p.throughputOpsSec)),
            runtimeMs: runtimes.length ? mean(runtimes) : null,
            latency: latencyOfPhases(ps, ops),
          };
        })
        .sort((a, b) => a.threads - b.threads),
    };
  });
}

/** A phase's runtime: its slowest client's (the phase lasts until every client is done). */
async function phaseRuntimes(db: Db, phaseIds: readonly number[]): Promise<Map<number, number>> {
  if (phaseIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ phaseId: number; runtimeMs: number }[]>`
    SELECT phase_id AS "phaseId", MAX(runtime_ms) AS "runtimeMs" FROM client_results WHERE phase_id IN (${Prisma.join([...phaseIds])}) GROUP BY phase_id`;
  return new Map(rows.map((r) => [Number(r.phaseId), Number(r.runtimeMs)]));
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
  sourceKind: string;
  runs: string[];
  /** Each repeat: its run, its phase and what it achieved, in run then phase order. */
  repeats: { runId: string; phase: string; runRepeat: number; throughputOpsSec: number }[];
  throughput: RepeatStatistics;
}

/**
 * Repeats of one configuration (model/aggregate/repeats.ts: same deployment, source, workload, load level and YCSB
 * properties): phases of runs that differ only in their repeat index, or repeat phases of one run ("-r<N>").
 */
export async function repeatability(db: Db, f: RunFilters): Promise<RepeatGroup[]> {
  const rows = (await phaseSummaries(db, f, [Prisma.sql`p.kind = 'workload'`])).filter((r) => r.clientsReported >= r.clients);
  const properties = new Map<number, Record<string, unknown>>();
  if (rows.length) {
    const ps = await db.$queryRaw<{ id: number; properties: Record<string, unknown> }[]>`
      SELECT id, properties FROM phases WHERE id IN (${Prisma.join(rows.map((r) => r.phaseId))})`;
    for (const p of ps) properties.set(Number(p.id), p.properties ?? {});
  }
  const groups = new Map<string, PhaseSummaryRow[]>();
  for (const r of rows) {
    const k = configurationKey({ ...r, properties: properties.get(Number(r.phaseId)) ?? {} });
    pushTo(groups, k, r);
  }
  return [...groups.values()]
    .filter((rs) => rs.length > 1)
    .map((rs) => {
      const first = rs[0]!;
      const repeats = rs
        .map((r) => ({ runId: r.runId, phase: r.phase, runRepeat: r.repeat, throughputOpsSec: r.throughputOpsSec }))
        .sort((a, b) => a.runRepeat - b.runRepeat || a.runId.localeCompare(b.runId) || a.phase.localeCompare(b.phase, undefined, { numeric: true }));
      return {
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
        sourceKind: first.sourceKind,
        runs: [...new Set(rs.map((r) => r.runId))],
        repeats,
        throughput: repeatStatistics(repeats.map((r) => r.throughputOpsSec)),
      };
    });
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
      histograms: Object.fromEntries(c.operations.filter((o) => o.histogramBuckets !== null).map((o) => [o.operation, o.histogramBuckets as { bucket: string; count: number }[]])),
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
    const h = mergeHistograms(list);
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
  if (Array.isArray(points)) {
    const rows = points as { elapsedSec: number; opsPerSec: number | null }[];
    return { elapsedSec: rows.map((p) => p.elapsedSec), opsPerSec: rows.map((p) => p.opsPerSec) };
  }
  const series = points as Partial<StatusSeries> | null | undefined;
  return { elapsedSec: series?.elapsedSec ?? [], opsPerSec: series?.opsPerSec ?? [] };
}
