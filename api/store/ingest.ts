import { createHash } from "node:crypto";
import { documentRepeats } from "../../model/aggregate/repeats.js";
import { clientsReported, lessSevere, phaseRuntimeMs, phaseThroughput, phaseWorkload, worstVerdict } from "../../model/aggregate/rules.js";
import { phasePreset } from "../../model/presets.js";
import type { ResultDocument } from "../../model/result-document.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/open.js";
import { bumpDataVersion, noteWrite } from "./data-version.js";

/** What happened to one document: stored now, already stored identically, or a different document under its key. */
export type IngestStatus = "created" | "duplicate" | "conflict";

export interface IngestOutcome {
  runId: string;
  phase: string;
  clientIndex: number;
  status: IngestStatus;
}

/** A run id reused with other run facts: refused, nothing written. */
export class RunConflictError extends Error {
  constructor(
    readonly runId: string,
    readonly field: string,
  ) {
    super(`run ${runId} is already stored with a different ${field}`);
  }
}

/** A phase already stored (or earlier in the batch) with other facts: its clients would be merged into nonsense. */
export class PhaseConflictError extends Error {
  constructor(
    readonly runId: string,
    readonly phase: string,
    readonly field: string,
    readonly stored: unknown,
    readonly given: unknown,
  ) {
    super(`phase ${phase} of run ${runId} is already stored with ${field} ${JSON.stringify(stored)}; this document says ${JSON.stringify(given)}`);
  }
}

/** Extra per-client data an importer may attach (not part of the posted document): merged HDR histograms per operation. */
export interface IngestExtras {
  hdrHistograms?: Record<string, string>;
}

/** The one source of every measured run. */
export const MEASURED_SOURCE = "measured";

export function sourceIdOf(doc: ResultDocument): string {
  const s = doc.run.source;
  if (s.kind === "measured") return MEASURED_SOURCE;
  return `published:${s.seed ?? createHash("sha256").update(s.citation).digest("hex").slice(0, 16)}`;
}

/** The same value with every object's keys in sorted order (arrays of plain values are shared, not copied). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.some((v) => v !== null && typeof v === "object") ? value.map(sortedKeys) : value;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortedKeys((value as Record<string, unknown>)[k]);
  return out;
}

/** JSON with every object's keys sorted: one text per content, whatever order the sender wrote the keys in. */
const canonicalJson = (value: unknown) => JSON.stringify(sortedKeys(value));

/** sha256 of the document's canonical JSON: the same content is the same hash, whatever its key order. */
export function documentHash(doc: ResultDocument): string {
  return createHash("sha256").update(canonicalJson(doc)).digest("hex");
}

/** The hash stored before hashes were canonical (the JSON as sent): still recognised, so a resent document stays a duplicate. */
export function legacyDocumentHash(doc: ResultDocument): string {
  return createHash("sha256").update(JSON.stringify(doc)).digest("hex");
}

const lz4Support = new WeakMap<Db, Promise<boolean>>();
/** Whether the server was built with lz4 (Debian's Postgres is; PGlite is not): asked once per client. */
function hasLz4(db: Db): Promise<boolean> {
  let p = lz4Support.get(db);
  if (!p) {
    // Postgres < 14 has no such setting (no row): pglz then, as before.
    p = db.$queryRaw<{ ok: boolean }[]>`SELECT 'lz4' = ANY(enumvals) AS ok FROM pg_settings WHERE name = 'default_toast_compression'`.then((r) => r[0]?.ok === true);
    lz4Support.set(db, p);
    p.catch(() => lz4Support.delete(db)); // a failed probe (connection lost) is asked again next time
  }
  return p;
}

const keyOf = (runId: string, phase: string, client: number) => `${runId}\u0000${phase}\u0000${client}`;

/**
 * Fields that identify what a run measured: a second document of the run must agree on them. `repeat` is the run's
 * own repeat (documentRepeats): a plan's repeats are phases of one run and never make its documents disagree.
 */
const RUN_IDENTITY = ["scenario", "engine", "preset", "nodes", "engineVersion", "repeat"] as const;

/** What every client of one phase ran: a second document of the phase must agree on them (their sum is the phase's). */
const PHASE_IDENTITY = ["index", "kind", "workload", "threadsPerClient", "target", "clients", "repeat", "operationCount"] as const;
type PhaseFacts = Pick<ResultDocument["phase"], (typeof PHASE_IDENTITY)[number]>;
const phaseFact = (p: Partial<PhaseFacts>, f: (typeof PHASE_IDENTITY)[number]) => p[f] ?? null;

export interface IngestOptions {
  /** Only the reference loader (prisma/reference) stores published figures. */
  allowPublished?: boolean;
}

/**
 * Stores validated documents atomically (all or none), idempotently: the unique keys (run; run + phase name;
 * phase + client index) and INSERT ... ON CONFLICT DO NOTHING decide, never a check-then-insert, so the same
 * document sent twice or by two processes at once is stored once.
 */
export async function ingestDocuments(db: Db, docs: readonly ResultDocument[], extras: readonly (IngestExtras | undefined)[] = [], options: IngestOptions = {}): Promise<IngestOutcome[]> {
  if (docs.length === 0) return [];
  if (!options.allowPublished) {
    const published = docs.find((d) => d.run.source.kind === "published");
    if (published) throw new Error(`run ${published.run.id}: published figures are stored only by the reference loader`);
  }
  const lz4 = await hasLz4(db);
  const outcomes = await db.$transaction(
    async (tx) => {
      // The status series (the largest jsonb of a document, KBs) is TOAST-compressed on insert; lz4 costs a fraction of the
      // default pglz (PostgreSQL docs, "default_toast_compression"); SET LOCAL ends with the transaction.
      if (lz4) await tx.$executeRaw`SET LOCAL default_toast_compression = 'lz4'`;
      const sources = new Map<string, { id: string; kind: string; citation: string | null; seed: string | null }>();
      for (const d of docs) {
        const s = d.run.source;
        sources.set(sourceIdOf(d), { id: sourceIdOf(d), kind: s.kind, citation: s.kind === "published" ? s.citation : null, seed: s.kind === "published" ? (s.seed ?? null) : null });
      }
      // Bulk statements with one JSON parameter each (jsonb_to_recordset): the hot path of ingest, ~20x faster
      // than row-by-row ORM inserts; ON CONFLICT DO NOTHING makes every step idempotent and race-free.
      const json = (rows: unknown[]) => JSON.stringify(rows);
      await tx.$executeRaw`
        INSERT INTO sources (id, kind, citation, seed)
        SELECT id, kind, citation, seed FROM jsonb_to_recordset(${json([...sources.values()])}::jsonb) AS x(id text, kind text, citation text, seed text)
        ON CONFLICT (id) DO NOTHING`;

      const runs = new Map<string, ResultDocument["run"] & { sourceId: string }>();
      for (const d of docs) if (!runs.has(d.run.id)) runs.set(d.run.id, { ...d.run, repeat: documentRepeats(d).run, sourceId: sourceIdOf(d) });
      const runRows = [...runs.values()].map((r) => ({
        id: r.id,
        scenario: r.scenario,
        engine: r.engine,
        engine_version: r.engineVersion,
        preset: r.preset,
        nodes: r.nodes,
        data_instance_type: r.instanceTypes.data,
        client_instance_type: r.instanceTypes.client,
        storage: r.storage ?? null,
        region: r.region ?? null,
        replication: r.replication,
        ycsb_version: r.ycsbVersion,
        bindings_version: r.bindingsVersion ?? null,
        ycsb_lab_version: r.ycsbLabVersion,
        provenance: r.provenance ?? null,
        repeat: r.repeat,
        // timestamp(3) columns hold UTC: normalise any offset first.
        started_at: new Date(r.startedAt).toISOString(),
        finished_at: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
        stand_in: r.standIn ?? null,
        source_id: r.sourceId,
      }));
      await tx.$executeRaw`
        INSERT INTO runs (id, scenario, engine, engine_version, preset, nodes, data_instance_type, client_instance_type, storage, region, replication,
                          ycsb_version, bindings_version, ycsb_lab_version, provenance, repeat, started_at, finished_at, stand_in, source_id)
        SELECT id, scenario, engine, engine_version, preset, nodes, data_instance_type, client_instance_type, storage, region, replication,
               ycsb_version, bindings_version, ycsb_lab_version, provenance, repeat, started_at, finished_at, stand_in, source_id
        FROM jsonb_to_recordset(${json(runRows)}::jsonb) AS x(id text, scenario text, engine text, engine_version text, preset text, nodes int,
             data_instance_type text, client_instance_type text, storage text, region text, replication int, ycsb_version text, bindings_version text,
             ycsb_lab_version text, provenance jsonb, repeat int, started_at timestamp(3), finished_at timestamp(3), stand_in text, source_id text)
        ON CONFLICT (id) DO NOTHING`;
      const stored = await tx.run.findMany({ where: { id: { in: [...runs.keys()] } }, select: { id: true, scenario: true, engine: true, preset: true, nodes: true, engineVersion: true, repeat: true } });
      for (const s of stored) {
        const r = runs.get(s.id)!;
        for (const f of RUN_IDENTITY) if (s[f] !== r[f]) throw new RunConflictError(s.id, f);
      }
      for (const d of docs) {
        const r = runs.get(d.run.id)!;
        const run = { ...d.run, repeat: documentRepeats(d).run };
        for (const f of RUN_IDENTITY) if (run[f] !== r[f]) throw new RunConflictError(d.run.id, f);
      }

      const phases = new Map<string, ResultDocument["phase"] & { runId: string; repeat: number; preset: string }>();
      for (const d of docs) {
        const k = `${d.run.id}\u0000${d.phase.name}`;
        const first = phases.get(k);
        // As stored: a load's workload is "load", the phase's repeat as documentRepeats reads it.
        const phase = { ...d.phase, workload: phaseWorkload(d.phase) ?? undefined, runId: d.run.id, repeat: documentRepeats(d).phase, preset: phasePreset(d.run.preset, d.phase.properties) };
        if (!first) phases.set(k, phase);
        else for (const f of PHASE_IDENTITY) if (phaseFact(first, f) !== phaseFact(phase, f)) throw new PhaseConflictError(d.run.id, d.phase.name, f, phaseFact(first, f), phaseFact(phase, f));
      }
      const phaseRows = [...phases.values()].map((p) => ({
        run_id: p.runId,
        name: p.name,
        index: p.index,
        kind: p.kind,
        workload: p.workload ?? null,
        properties: p.properties,
        threads_per_client: p.threadsPerClient,
        target: p.target ?? null,
        clients: p.clients,
        repeat: p.repeat,
        operation_count: p.operationCount ?? null,
        operation_count_per: p.operationCountPer ?? null,
        preset: p.preset,
      }));
      await tx.$executeRaw`
        INSERT INTO phases (run_id, name, index, kind, workload, properties, threads_per_client, target, clients, repeat, operation_count, operation_count_per, preset)
        SELECT run_id, name, index, kind, workload, properties, threads_per_client, target, clients, repeat, operation_count, operation_count_per, preset
        FROM jsonb_to_recordset(${json(phaseRows)}::jsonb) AS x(run_id text, name text, index int, kind text, workload text, properties jsonb,
             threads_per_client int, target float8, clients int, repeat int, operation_count int, operation_count_per text, preset text)
        ON CONFLICT (run_id, name) DO NOTHING`;
      const phaseIds = await tx.$queryRaw<({ id: number; run_id: string; name: string } & PhaseFacts)[]>`
        SELECT p.id, p.run_id, p.name, p.index, p.kind, p.workload, p.threads_per_client AS "threadsPerClient", p.target, p.clients, p.repeat,
               p.operation_count AS "operationCount" FROM phases p
        JOIN jsonb_to_recordset(${json(phaseRows.map((p) => ({ run_id: p.run_id, name: p.name })))}::jsonb) AS x(run_id text, name text)
          ON p.run_id = x.run_id AND p.name = x.name`;
      for (const stored of phaseIds) {
        const given = phases.get(`${stored.run_id}\u0000${stored.name}`)!;
        for (const f of PHASE_IDENTITY) {
          const a = phaseFact(stored, f);
          if ((typeof a === "bigint" ? Number(a) : a) !== phaseFact(given, f)) throw new PhaseConflictError(stored.run_id, stored.name, f, a, phaseFact(given, f));
        }
      }
      const phaseId = new Map(phaseIds.map((p) => [`${p.run_id}\u0000${p.name}`, Number(p.id)]));

      const hashes = docs.map(documentHash);
      const firstOfKey = new Map<string, number>();
      docs.forEach((d, i) => {
        const k = keyOf(d.run.id, d.phase.name, d.client.index);
        if (!firstOfKey.has(k)) firstOfKey.set(k, i);
      });
      const candidates = [...firstOfKey.values()];
      const clientRows = candidates.map((i) => {
        const d = docs[i]!;
        return {
          phase_id: phaseId.get(`${d.run.id}\u0000${d.phase.name}`)!,
          run_id: d.run.id,
          client_index: d.client.index,
          client_count: d.client.count,
          host: d.client.host ?? null,
          started_at: new Date(d.startedAt).toISOString(),
          finished_at: new Date(d.finishedAt).toISOString(),
          runtime_ms: d.result.overall.runtimeMs,
          throughput_ops_sec: d.result.overall.throughputOpsSec,
          measurement_type: d.result.measurementType,
          gc: d.result.gc,
          resources: d.resources,
          unknown_lines: d.result.unknownLines,
          warnings: d.result.warnings,
          document_hash: hashes[i]!,
        };
      });
      const inserted = await tx.$queryRaw<{ id: number; phase_id: number; client_index: number }[]>`
        INSERT INTO client_results (phase_id, run_id, client_index, client_count, host, started_at, finished_at, runtime_ms, throughput_ops_sec,
                                    measurement_type, gc, resources, unknown_lines, warnings, document_hash)
        SELECT phase_id, run_id, client_index, client_count, host, started_at, finished_at, runtime_ms, throughput_ops_sec,
               measurement_type, gc, resources, unknown_lines, warnings, document_hash
        FROM jsonb_to_recordset(${json(clientRows)}::jsonb) AS x(phase_id int, run_id text, client_index int, client_count int, host text,
             started_at timestamp(3), finished_at timestamp(3), runtime_ms float8, throughput_ops_sec float8, measurement_type text, gc jsonb,
             resources jsonb, unknown_lines jsonb, warnings jsonb, document_hash text)
        ON CONFLICT (phase_id, client_index) DO NOTHING
        RETURNING id, phase_id, client_index`;
      const insertedId = new Map(inserted.map((r) => [`${Number(r.phase_id)}\u0000${Number(r.client_index)}`, Number(r.id)]));
      const created = new Map<number, number>(); // doc index -> client result id
      for (const i of candidates) {
        const d = docs[i]!;
        const id = insertedId.get(`${phaseId.get(`${d.run.id}\u0000${d.phase.name}`)}\u0000${d.client.index}`);
        if (id !== undefined) created.set(i, id);
      }

      const ops = [];
      const series = [];
      const hdrRefs = [];
      const verdicts = [];
      for (const [i, clientResultId] of created) {
        const d = docs[i]!;
        // The importer's merge of the hdrLogs, else the histograms the runner wrote into the document.
        const hdr = extras[i]?.hdrHistograms ?? d.hdrHistograms ?? {};
        for (const [operation, o] of Object.entries(d.result.operations)) {
          ops.push({
            client_result_id: clientResultId,
            operation,
            count: o.count,
            avg_us: o.avgUs,
            min_us: o.minUs,
            max_us: o.maxUs,
            percentiles_us: o.percentilesUs,
            returns: o.returns,
            histogram_buckets: o.histogramBuckets ?? null,
            time_series: o.timeSeries ?? null,
            extra: o.extra ?? null,
            hdr_histogram: hdr[operation] ?? null,
          });
        }
        series.push({ client_result_id: clientResultId, points: d.result.statusSeries });
        for (const h of d.hdrLogs) hdrRefs.push({ client_result_id: clientResultId, operation: h.operation, uri: h.uri });
        verdicts.push({ client_result_id: clientResultId, verdict: d.validity.verdict, reasons: d.validity.reasons });
      }
      if (ops.length) {
        await tx.$executeRaw`
          INSERT INTO operation_stats (client_result_id, operation, count, avg_us, min_us, max_us, percentiles_us, returns, histogram_buckets, time_series, extra, hdr_histogram)
          SELECT client_result_id, operation, count, avg_us, min_us, max_us, percentiles_us, returns, histogram_buckets, time_series, extra, hdr_histogram
          FROM jsonb_to_recordset(${json(ops)}::jsonb) AS x(client_result_id int, operation text, count bigint, avg_us float8, min_us float8, max_us float8,
               percentiles_us jsonb, returns jsonb, histogram_buckets jsonb, time_series jsonb, extra jsonb, hdr_histogram text)`;
      }
      if (series.length) {
        await tx.$executeRaw`
          INSERT INTO status_series (client_result_id, points)
          SELECT client_result_id, points FROM jsonb_to_recordset(${json(series)}::jsonb) AS x(client_result_id int, points jsonb)`;
      }
      if (hdrRefs.length) {
        await tx.$executeRaw`
          INSERT INTO hdr_log_refs (client_result_id, operation, uri)
          SELECT client_result_id, operation, uri FROM jsonb_to_recordset(${json(hdrRefs)}::jsonb) AS x(client_result_id int, operation text, uri text)
          ON CONFLICT DO NOTHING`;
      }
      if (verdicts.length) {
        await tx.$executeRaw`
          INSERT INTO validity_verdicts (client_result_id, verdict, reasons)
          SELECT client_result_id, verdict, reasons FROM jsonb_to_recordset(${json(verdicts)}::jsonb) AS x(client_result_id int, verdict text, reasons jsonb)`;
      }

      await keepTotals(tx, [...new Set(inserted.map((r) => Number(r.phase_id)))]);
      // What the views show changed: the cached answers go (last statement, so its row lock is held only to commit).
      if (inserted.length > 0) await bumpDataVersion(tx);

      // Not created: the same key is stored already; identical content is a duplicate, anything else a conflict.
      const notCreated = docs.map((_, i) => i).filter((i) => !created.has(i));
      const existing = notCreated.length
        ? await tx.clientResult.findMany({
            where: { OR: notCreated.map((i) => ({ runId: docs[i]!.run.id, clientIndex: docs[i]!.client.index, phase: { name: docs[i]!.phase.name } })) },
            select: { runId: true, clientIndex: true, documentHash: true, phase: { select: { name: true } } },
          })
        : [];
      const existingHash = new Map(existing.map((e) => [keyOf(e.runId, e.phase.name, e.clientIndex), e.documentHash]));
      return docs.map((d, i) => {
        const base = { runId: d.run.id, phase: d.phase.name, clientIndex: d.client.index };
        if (created.has(i)) return { ...base, status: "created" as const };
        const stored = existingHash.get(keyOf(d.run.id, d.phase.name, d.client.index)) ?? hashes[firstOfKey.get(keyOf(d.run.id, d.phase.name, d.client.index))!];
        const same = stored === hashes[i] || (existingHash.has(keyOf(d.run.id, d.phase.name, d.client.index)) && stored === legacyDocumentHash(d));
        return { ...base, status: same ? ("duplicate" as const) : ("conflict" as const) };
      });
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (outcomes.some((o) => o.status === "created")) noteWrite(db);
  return outcomes;
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * The totals the read side uses, kept by the model's rules (model/aggregate/rules.ts) for every phase this
 * transaction added clients to: summed throughput, clients reported, the slowest client's runtime and the worst
 * verdict; then each touched run's worst verdict over its phases. The touched phases are locked first (in id order,
 * no deadlock) and read in a later statement, whose snapshot sees every client a concurrent ingest committed.
 */
async function keepTotals(tx: Tx, phaseIds: number[]): Promise<void> {
  const touched = [...phaseIds].sort((a, b) => a - b);
  if (touched.length === 0) return;
  await tx.$queryRaw`SELECT id FROM phases WHERE id IN (${Prisma.join(touched)}) ORDER BY id FOR UPDATE`;
  const clients = await tx.$queryRaw<{ phaseId: number; clientIndex: number; clients: number; throughputOpsSec: number; runtimeMs: number; verdict: string | null }[]>`
    SELECT c.phase_id AS "phaseId", c.client_index AS "clientIndex", p.clients, c.throughput_ops_sec AS "throughputOpsSec", c.runtime_ms AS "runtimeMs", v.verdict
    FROM client_results c JOIN phases p ON p.id = c.phase_id LEFT JOIN validity_verdicts v ON v.client_result_id = c.id
    WHERE c.phase_id IN (${Prisma.join(touched)})`;
  const byPhase = new Map<number, typeof clients>();
  for (const c of clients) {
    const list = byPhase.get(Number(c.phaseId));
    if (list) list.push(c);
    else byPhase.set(Number(c.phaseId), [c]);
  }
  const totals = [...byPhase].map(([id, cs]) => ({
    id,
    throughput_sum: phaseThroughput(cs),
    clients_reported: clientsReported(cs.map((c) => c.clientIndex), cs[0]!.clients),
    runtime_ms: phaseRuntimeMs(cs),
    verdict: worstVerdict(cs.map((c) => c.verdict)),
  }));
  const runIds = await tx.$queryRaw<{ id: number; run_id: string }[]>`
    UPDATE phases p SET throughput_sum = x.throughput_sum, clients_reported = x.clients_reported, runtime_ms = x.runtime_ms, verdict = x.verdict
    FROM jsonb_to_recordset(${JSON.stringify(totals)}::jsonb) AS x(id int, throughput_sum float8, clients_reported int, runtime_ms float8, verdict text)
    WHERE p.id = x.id
    RETURNING p.id, p.run_id`;
  // A run's verdict is the worst of its phases'. Verdicts only ever get worse as clients report (a stored result never
  // changes), so each touched run is raised to the worst of the phases touched now: no read of its other phases and
  // no lock unless it changes (concurrent batches of one run stay concurrent).
  const verdictOf = new Map(totals.map((t) => [t.id, t.verdict]));
  const byRun = new Map<string, string[]>();
  for (const r of runIds) byRun.set(r.run_id, [...(byRun.get(r.run_id) ?? []), verdictOf.get(Number(r.id))!]);
  const raises = [...byRun]
    .map(([id, vs]) => ({ id, verdict: worstVerdict(vs) }))
    .filter((r) => r.verdict !== "valid")
    .map((r) => ({ ...r, below: lessSevere(r.verdict) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  if (raises.length) {
    await tx.$executeRaw`
      UPDATE runs r SET verdict = x.verdict FROM jsonb_to_recordset(${JSON.stringify(raises)}::jsonb) AS x(id text, verdict text, below jsonb)
      WHERE r.id = x.id AND x.below ? r.verdict`;
  }
}
