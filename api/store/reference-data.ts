import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Engine, isEngine } from "../../model/engine.js";
import { PRESET_PROPERTY, PRESETS, type Preset } from "../../model/presets.js";
import { type ResultDocument, ResultDocumentSchema, SCHEMA_VERSION } from "../../model/result-document.js";
import { checkAgainst } from "../../model/result-validation.js";
import { emptyStatusSeries } from "../../model/status-series.js";
import { workload as catalogueWorkload } from "../../model/workloads.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/client.js";
import { aroundRunChange } from "./aggregates/refresh.js";
import { noteWrite, recordWrite } from "./data-version.js";
import { documentHash, legacyDocumentHash } from "./document-hash.js";
import { ingestDocuments, sourceIdOf } from "./ingest.js";

/**
 * Loads the seeds' published tables (prisma/reference/<seed>.json, transcribed from the seed texts) into
 * reference_tables verbatim, and turns the throughput/runtime tables into runs of source "published" so the API
 * and dashboard compute on them like measured runs. Idempotent; checks every table's row and column counts first.
 */
export const SEEDS = ["000", "001", "002", "003", "004"] as const;
/** The transcriptions are data beside the schema; this loader is the one writer of published runs. */
const DIR = fileURLToPath(new URL("../../prisma/reference/", import.meta.url));

export type Cell = string | number | null;
export interface ReferenceTableFile {
  id: string;
  tableRef: string;
  title: string;
  unit: string | null;
  columns: string[];
  expectedRows: number;
  rows: Cell[][];
  notes?: string;
  derive?: RunsDerive | LatencyDerive | MeanLatencyDerive | AnovaDerive;
}

/**
 * A table of mean latencies by cluster size (seeds 000, 001, 002): a reference series per engine column
 * (model/reference-series.ts), for one workload (or across all, seed 001) and one operation (or all, 000 and 002).
 */
export interface MeanLatencyDerive {
  metric: "mean-latency";
  keyColumn: "nodes" | "shards";
  workload: string | null;
  operation: string | null;
  unit: "us" | "ms";
  engines: Record<string, string>;
}

/** Seed 003's Table 9: its analysis of variance, rows by workload and operation count (the API's /anova compares). */
export interface AnovaDerive {
  metric: "anova";
  scenario: string;
}

/** A throughput or runtime table: each engine column becomes published runs, one per key (nodes, shards, threads). */
export interface RunsDerive {
  metric: "throughput" | "runtime";
  workload: string;
  keyColumn: "nodes" | "shards" | "threads";
  engines: Record<string, string>;
  /** runtime tables: operations per test, to derive throughput = operations / runtime. */
  operations?: number;
  /** The published figure is the mean of this many repeats (seed 003: 3), for the ANOVA's cells. */
  repeats?: number;
  /** The table's own preset where it differs from the study's (seed 000's load: non-durable writes). */
  preset?: Preset;
}

/**
 * A table of p99 latencies per engine (seed 004): rows are engines (`engines` maps the first column's names),
 * columns operations (`operations` maps column names to YCSB groups), for one workload, preset and cluster size.
 * Cells are printed as "4ms" or "<1ms": they stay text in the table and are read by the dashboard.
 */
export interface LatencyDerive {
  metric: "p99";
  scenario: string;
  workload: string;
  preset: Preset;
  nodes: number;
  engines: Record<string, string>;
  operations: Record<string, string>;
}
export interface SeedFile {
  seed: string;
  citation: { title: string; text: string; year: number; authors?: string; organization?: string };
  scenario: string;
  preset: Preset | null;
  /** The preset each engine ran with where the study set them apart (seed 002: Cassandra without commit log). */
  enginePresets?: Partial<Record<Engine, Preset>>;
  presetNote?: string;
  /** Copies of each record, as the study states (seed 002: 2). */
  replication: number;
  engineVersions: Partial<Record<Engine, string>>;
  /** Where each fact above stands in the study, by line of seeds/<seed>.txt. */
  sources?: Record<string, string>;
  instanceTypes: { data: string; client: string };
  tables: ReferenceTableFile[];
}

export async function readSeedFile(seed: string): Promise<SeedFile> {
  return JSON.parse(await readFile(`${DIR}${seed}.json`, "utf8")) as SeedFile;
}

/** Row and column counts of every table, and the engine columns of derived tables: problems, one line each. */
export function checkSeedFile(f: SeedFile): string[] {
  const problems: string[] = [];
  for (const t of f.tables) {
    if (t.rows.length !== t.expectedRows) problems.push(`${t.id}: ${t.rows.length} rows, expected ${t.expectedRows}`);
    t.rows.forEach((r, i) => {
      if (r.length !== t.columns.length)
        problems.push(`${t.id} row ${i}: ${r.length} cells for ${t.columns.length} columns`);
    });
    if (t.derive?.metric === "anova") {
      for (const col of ["workload", "ops"])
        if (!t.columns.includes(col)) problems.push(`${t.id}: anova column ${col} missing`);
      if (t.derive.scenario !== f.scenario)
        problems.push(`${t.id}: scenario ${t.derive.scenario} is not the seed's ${f.scenario}`);
      continue;
    }
    if (t.derive?.metric === "mean-latency") {
      for (const [col, engine] of Object.entries(t.derive.engines)) {
        if (!t.columns.includes(col)) problems.push(`${t.id}: engine column ${col} missing`);
        if (!isEngine(engine)) problems.push(`${t.id}: ${engine} is not an engine`);
      }
      if (t.columns[0] !== t.derive.keyColumn)
        problems.push(`${t.id}: first column ${t.columns[0]} is not ${t.derive.keyColumn}`);
      if (t.derive.workload !== null) {
        try {
          catalogueWorkload(t.derive.workload);
        } catch {
          problems.push(`${t.id}: workload ${t.derive.workload} is not in the catalogue`);
        }
      }
      continue;
    }
    if (t.derive?.metric === "p99") {
      const d = t.derive;
      for (const [name, engine] of Object.entries(d.engines))
        if (!isEngine(engine)) problems.push(`${t.id}: ${name} -> ${engine} is not an engine`);
      t.rows.forEach((r, i) => {
        if (!(String(r[0]) in d.engines)) problems.push(`${t.id} row ${i}: ${r[0]} is not a named engine`);
      });
      for (const col of Object.keys(d.operations))
        if (!t.columns.includes(col)) problems.push(`${t.id}: operation column ${col} missing`);
      if (!PRESETS.includes(d.preset)) problems.push(`${t.id}: preset ${d.preset} unknown`);
      if (d.scenario !== f.scenario) problems.push(`${t.id}: scenario ${d.scenario} is not the seed's ${f.scenario}`);
    } else if (t.derive) {
      for (const [col, engine] of Object.entries(t.derive.engines)) {
        if (!t.columns.includes(col)) problems.push(`${t.id}: engine column ${col} missing`);
        if (!isEngine(engine)) problems.push(`${t.id}: ${engine} is not an engine`);
      }
    }
    if (t.derive && t.derive.workload !== "load") {
      try {
        catalogueWorkload(t.derive.workload);
      } catch {
        problems.push(`${t.id}: workload ${t.derive.workload} is not in the catalogue`);
      }
    }
  }
  if (f.preset !== null && !PRESETS.includes(f.preset)) problems.push(`preset ${f.preset} unknown`);
  for (const [engine, preset] of Object.entries(f.enginePresets ?? {})) {
    if (!isEngine(engine) || !PRESETS.includes(preset))
      problems.push(`enginePresets: ${engine} -> ${preset} is not an engine and preset`);
  }
  if (!(Number.isInteger(f.replication) && f.replication >= 1))
    problems.push(`replication ${String(f.replication)} is not a copy count`);
  return problems;
}

/** The published figures of derived tables as result documents (one "client" = the published aggregate). */
export function publishedDocuments(f: SeedFile): ResultDocument[] {
  const docs: ResultDocument[] = [];
  const startedAt = `${f.citation.year}-01-01T00:00:00.000Z`;
  for (const t of f.tables) {
    const d = t.derive;
    const preset = f.preset;
    if (!d || d.metric === "p99" || d.metric === "anova" || d.metric === "mean-latency" || !preset) continue;
    const keyIndex = 0;
    t.rows.forEach((row) => {
      const key = Number(row[keyIndex]);
      for (const [col, engineName] of Object.entries(d.engines)) {
        const value = row[t.columns.indexOf(col)];
        if (typeof value !== "number") continue;
        const engine = engineName as Engine;
        const runPreset = f.enginePresets?.[engine] ?? preset;
        const byThreads = d.keyColumn === "threads";
        const nodes = byThreads ? 1 : key;
        const runId = byThreads
          ? `seed${f.seed}-${d.workload}-ops${d.operations}-${engine}`
          : `seed${f.seed}-${engine}-n${nodes}`;
        const phaseName = byThreads ? `${d.workload}-t${key}` : d.workload;
        const runtimeMs = d.metric === "runtime" ? value : 0;
        const throughput = d.metric === "runtime" ? (d.operations! * 1000) / value : value;
        docs.push({
          schemaVersion: SCHEMA_VERSION,
          run: {
            id: runId,
            scenario: f.scenario,
            engine,
            engineVersion: f.engineVersions[engine] ?? "as published",
            preset: runPreset,
            nodes,
            instanceTypes: f.instanceTypes,
            replication: f.replication,
            ycsbVersion: "as published",
            ycsbLabVersion: "reference",
            repeat: 0,
            startedAt,
            source: { kind: "published", citation: f.citation.text, seed: f.seed },
          },
          phase: {
            name: phaseName,
            index: byThreads ? Math.log2(key) : f.tables.indexOf(t),
            kind: d.workload === "load" ? "load" : "workload",
            ...(d.workload === "load" ? {} : { workload: d.workload }),
            // A table run under another preset than the study's (seed 000's non-durable load) says so, as measured phases do.
            properties: {
              referenceTable: t.id,
              tableRef: t.tableRef,
              ...(d.preset ? { [PRESET_PROPERTY]: d.preset } : {}),
            },
            threadsPerClient: byThreads ? key : 1,
            clients: 1,
            // Seed 003's operation count is a factor of its study (Tables 1-8, one per count): its own series.
            ...(d.operations ? { operationCount: d.operations, operationCountPer: "client" as const } : {}),
          },
          client: { index: 0, count: 1 },
          startedAt,
          finishedAt: startedAt,
          result: {
            overall: { runtimeMs, throughputOpsSec: throughput },
            operations: {},
            gc: {},
            statusSeries: emptyStatusSeries(),
            measurementType: null,
            unknownLines: [],
            warnings:
              d.metric === "runtime"
                ? [`throughput derived as ${d.operations} operations / published mean runtime`]
                : [],
          },
          hdrLogs: [],
          resources: [],
          validity: { verdict: "valid", reasons: [{ code: "published", message: `${t.tableRef}: ${t.title}` }] },
        });
      }
    });
  }
  return docs;
}

export interface LoadReport {
  tables: number;
  documents: number;
  created: number;
  /** Published runs deleted and stored again because their seed's transcription changed since they were stored. */
  replaced: number;
}

export async function loadReferenceData(db: Db, seeds: readonly string[] = SEEDS): Promise<LoadReport> {
  const report: LoadReport = { tables: 0, documents: 0, created: 0, replaced: 0 };
  for (const seed of seeds) {
    const f = await readSeedFile(seed);
    const problems = checkSeedFile(f);
    if (problems.length) throw new Error(`prisma/reference/${seed}.json: ${problems.join("; ")}`);
    for (const t of f.tables) {
      const data = {
        seed,
        tableRef: t.tableRef,
        title: t.title,
        citation: f.citation.text,
        unit: t.unit,
        columns: t.columns,
        rows: t.rows,
        notes: t.notes ?? null,
        derive: t.derive ? (t.derive as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
      };
      await db.referenceTable.upsert({ where: { id: t.id }, create: { id: t.id, ...data }, update: data });
      report.tables++;
    }
    const docs = publishedDocuments(f);
    for (const d of docs) {
      const errors = checkAgainst(ResultDocumentSchema, d, { allowPublished: true });
      if (errors.length)
        throw new Error(`seed ${seed} run ${d.run.id}: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`);
    }
    report.replaced += await removeStalePublishedRuns(db, docs);
    for (let i = 0; i < docs.length; i += 200) {
      const out = await ingestDocuments(db, docs.slice(i, i + 200), [], { allowPublished: true });
      report.created += out.filter((o) => o.status === "created").length;
    }
    report.documents += docs.length;
    await db.source
      .update({
        where: { id: `published:${seed}` },
        data: {
          title: f.citation.title,
          authors: f.citation.authors ?? f.citation.organization ?? null,
          year: f.citation.year,
        },
      })
      .catch(() => {});
  }
  // Tables, titles and replaced runs are what the views show too: cached answers go.
  await recordWrite(db, { runs: [], everything: true });
  noteWrite(db, { runs: [], everything: true });
  return report;
}

/**
 * Published runs are derived from prisma/reference/<seed>.json, and ingest never overwrites what is stored: when a
 * transcription is corrected, the runs stored from the old one would stay wrong. So a seed's published runs whose
 * documents differ from the current ones (or that it no longer yields) are deleted, to be stored again from the
 * current file. Only runs of that seed's published source are touched, never a measured run. Returns how many runs.
 */
async function removeStalePublishedRuns(db: Db, docs: readonly ResultDocument[]): Promise<number> {
  if (docs.length === 0) return 0;
  const sourceId = sourceIdOf(docs[0]!);
  // Either hash: rows stored before hashes were canonical stay current when their content is.
  const current = new Set(docs.flatMap((d) => [documentHash(d), legacyDocumentHash(d)]));
  const stored = await db.clientResult.findMany({
    where: { phase: { run: { sourceId } } },
    select: { documentHash: true },
  });
  if (stored.length === 0 || (stored.length === docs.length && stored.every((s) => current.has(s.documentHash))))
    return 0;
  const runs = await db.run.findMany({ where: { sourceId }, select: { id: true } });
  const { count } = await db.$transaction(
    (tx) =>
      aroundRunChange(
        tx,
        runs.map((r) => r.id),
        () => tx.run.deleteMany({ where: { sourceId } }),
      ),
    { timeout: 120_000 },
  );
  return count;
}
