import { documentRepeats } from "../../model/aggregate/repeats.js";
import type { ResultDocument } from "../../model/result-document.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/client.js";
import { bumpDataVersion, noteWrite } from "./data-version.js";
import { documentHash, legacyDocumentHash } from "./document-hash.js";
import {
  bulkInsert,
  CLIENT_RESULTS,
  clientResultRow,
  HDR_LOG_REFS,
  OPERATION_STATS,
  operationRows,
  phaseFactsOf,
  phaseRow,
  PHASES,
  RUNS,
  runRow,
  SOURCES,
  STATUS_SERIES,
  VALIDITY_VERDICTS,
  type PhaseFacts,
  type Row,
  type RunFacts,
} from "./ingest-tables.js";
import { keepTotals, type Tx } from "./phase-totals.js";
import { refreshAggregates } from "./aggregates/refresh.js";
import { sourceIdOf } from "./sources.js";

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

export { MEASURED_SOURCE, sourceIdOf } from "./sources.js";

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
type PhaseIdentity = Pick<ResultDocument["phase"], (typeof PHASE_IDENTITY)[number]>;
const phaseFact = (p: Partial<PhaseIdentity>, f: (typeof PHASE_IDENTITY)[number]) => p[f] ?? null;

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
      await storeSources(tx, docs);
      await storeRuns(tx, docs);
      const phaseId = await storePhases(tx, docs);
      const clients = await storeClientResults(tx, docs, phaseId);
      await storeClientDetails(tx, docs, extras, clients.created);
      await keepTotals(tx, clients.touchedPhases);
      await keepRunEnds(tx, docs, clients.created);
      await refreshAggregates(tx, clients.touchedPhases);
      // What the views show changed: the cached answers go (last statement, so its row lock is held only to commit).
      if (clients.created.size > 0) await bumpDataVersion(tx);
      return outcomesOf(tx, docs, clients);
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (outcomes.some((o) => o.status === "created")) noteWrite(db);
  return outcomes;
}

const phaseKey = (runId: string, phase: string) => `${runId}\u0000${phase}`;

async function storeSources(tx: Tx, docs: readonly ResultDocument[]): Promise<void> {
  const sources = new Map<string, Row<typeof SOURCES>>();
  for (const d of docs) {
    const s = d.run.source;
    sources.set(sourceIdOf(d), { id: sourceIdOf(d), kind: s.kind, citation: s.kind === "published" ? s.citation : null, seed: s.kind === "published" ? (s.seed ?? null) : null });
  }
  await tx.$executeRaw(bulkInsert(SOURCES, [...sources.values()], Prisma.sql`ON CONFLICT (id) DO NOTHING`));
}

/** The batch's runs, new ones stored; a run whose identity differs from what is stored (or earlier in the batch) is refused. */
async function storeRuns(tx: Tx, docs: readonly ResultDocument[]): Promise<void> {
  const runs = new Map<string, RunFacts>();
  for (const d of docs) if (!runs.has(d.run.id)) runs.set(d.run.id, { ...d.run, repeat: documentRepeats(d).run, sourceId: sourceIdOf(d) });
  await tx.$executeRaw(bulkInsert(RUNS, [...runs.values()].map(runRow), Prisma.sql`ON CONFLICT (id) DO NOTHING`));
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
}

/** The batch's phases, new ones stored, each checked against what is stored; their ids by run and phase name. */
async function storePhases(tx: Tx, docs: readonly ResultDocument[]): Promise<Map<string, number>> {
  const phases = new Map<string, PhaseFacts>();
  for (const d of docs) {
    const k = phaseKey(d.run.id, d.phase.name);
    const first = phases.get(k);
    const phase = phaseFactsOf(d, sourceIdOf(d));
    if (!first) phases.set(k, phase);
    else for (const f of PHASE_IDENTITY) if (phaseFact(first, f) !== phaseFact(phase, f)) throw new PhaseConflictError(d.run.id, d.phase.name, f, phaseFact(first, f), phaseFact(phase, f));
  }
  const rows = [...phases.values()].map(phaseRow);
  await tx.$executeRaw(bulkInsert(PHASES, rows, Prisma.sql`ON CONFLICT (run_id, name) DO NOTHING`));
  const stored = await tx.$queryRaw<({ id: number; run_id: string; name: string } & PhaseIdentity)[]>`
    SELECT p.id, p.run_id, p.name, p.index, p.kind, p.workload, p.threads_per_client AS "threadsPerClient", p.target, p.clients, p.repeat,
           p.operation_count AS "operationCount" FROM phases p
    JOIN jsonb_to_recordset(${JSON.stringify(rows.map((p) => ({ run_id: p.run_id, name: p.name })))}::jsonb) AS x(run_id text, name text)
      ON p.run_id = x.run_id AND p.name = x.name`;
  for (const s of stored) {
    const given = phases.get(phaseKey(s.run_id, s.name))!;
    for (const f of PHASE_IDENTITY) {
      const a = phaseFact(s, f);
      if ((typeof a === "bigint" ? Number(a) : a) !== phaseFact(given, f)) throw new PhaseConflictError(s.run_id, s.name, f, a, phaseFact(given, f));
    }
  }
  return new Map(stored.map((p) => [phaseKey(p.run_id, p.name), Number(p.id)]));
}

interface StoredClients {
  /** Document index -> the client result created for it now. */
  created: Map<number, number>;
  /** Phases that got a client now: their totals are kept. */
  touchedPhases: number[];
  hashes: string[];
  /** Per client key, the first document of the batch with it (later ones are duplicates or conflicts of it). */
  firstOfKey: Map<string, number>;
}

/** One client result per key (the first document of the batch with it), unless one is stored already. */
async function storeClientResults(tx: Tx, docs: readonly ResultDocument[], phaseId: Map<string, number>): Promise<StoredClients> {
  const hashes = docs.map(documentHash);
  const firstOfKey = new Map<string, number>();
  docs.forEach((d, i) => {
    const k = keyOf(d.run.id, d.phase.name, d.client.index);
    if (!firstOfKey.has(k)) firstOfKey.set(k, i);
  });
  const candidates = [...firstOfKey.values()];
  const rows = candidates.map((i) => clientResultRow(docs[i]!, phaseId.get(phaseKey(docs[i]!.run.id, docs[i]!.phase.name))!, hashes[i]!));
  const inserted = await tx.$queryRaw<{ id: number; phase_id: number; client_index: number }[]>(
    bulkInsert(CLIENT_RESULTS, rows, Prisma.sql`ON CONFLICT (phase_id, client_index) DO NOTHING RETURNING id, phase_id, client_index`),
  );
  const insertedId = new Map(inserted.map((r) => [`${Number(r.phase_id)}\u0000${Number(r.client_index)}`, Number(r.id)]));
  const created = new Map<number, number>();
  for (const i of candidates) {
    const d = docs[i]!;
    const id = insertedId.get(`${phaseId.get(phaseKey(d.run.id, d.phase.name))}\u0000${d.client.index}`);
    if (id !== undefined) created.set(i, id);
  }
  return { created, touchedPhases: [...new Set(inserted.map((r) => Number(r.phase_id)))], hashes, firstOfKey };
}

/** What hangs off each client result created now: operation groups, status series, HDR log references, verdict. */
async function storeClientDetails(tx: Tx, docs: readonly ResultDocument[], extras: readonly (IngestExtras | undefined)[], created: Map<number, number>): Promise<void> {
  const ops: Row<typeof OPERATION_STATS>[] = [];
  const series: Row<typeof STATUS_SERIES>[] = [];
  const hdrRefs: Row<typeof HDR_LOG_REFS>[] = [];
  const verdicts: Row<typeof VALIDITY_VERDICTS>[] = [];
  for (const [i, clientResultId] of created) {
    const d = docs[i]!;
    // The importer's merge of the hdrLogs, else the histograms the runner wrote into the document.
    ops.push(...operationRows(d, clientResultId, extras[i]?.hdrHistograms ?? d.hdrHistograms ?? {}));
    series.push({ client_result_id: clientResultId, points: d.result.statusSeries });
    for (const h of d.hdrLogs) hdrRefs.push({ client_result_id: clientResultId, operation: h.operation, uri: h.uri });
    verdicts.push({ client_result_id: clientResultId, verdict: d.validity.verdict, reasons: d.validity.reasons });
  }
  if (ops.length) await tx.$executeRaw(bulkInsert(OPERATION_STATS, ops));
  if (series.length) await tx.$executeRaw(bulkInsert(STATUS_SERIES, series));
  if (hdrRefs.length) await tx.$executeRaw(bulkInsert(HDR_LOG_REFS, hdrRefs, Prisma.sql`ON CONFLICT DO NOTHING`));
  if (verdicts.length) await tx.$executeRaw(bulkInsert(VALIDITY_VERDICTS, verdicts));
}

/**
 * A run's finishedAt: the end of its latest phase stored, raised as phases arrive (a runner writes each phase's
 * document as it ends and knows the run's end only after its last one; a document may state it, published ones do).
 * Only ever later: a client result is never changed, so the stored end cannot go back.
 */
async function keepRunEnds(tx: Tx, docs: readonly ResultDocument[], created: Map<number, number>): Promise<void> {
  const ends = new Map<string, string>();
  for (const i of created.keys()) {
    const d = docs[i]!;
    const end = d.run.finishedAt && d.run.finishedAt > d.finishedAt ? d.run.finishedAt : d.finishedAt;
    const at = new Date(end).toISOString();
    if ((ends.get(d.run.id) ?? "") < at) ends.set(d.run.id, at);
  }
  if (ends.size === 0) return;
  const rows = [...ends].map(([id, finished]) => ({ id, finished })).sort((a, b) => a.id.localeCompare(b.id));
  await tx.$executeRaw`
    UPDATE runs r SET finished_at = x.finished FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id text, finished timestamp(3))
    WHERE r.id = x.id AND (r.finished_at IS NULL OR r.finished_at < x.finished)`;
}

/**
 * Each document's outcome. Not created: its key is stored already; identical content is a duplicate, anything else a
 * conflict. The stored keys are looked up with one join over the batch's keys (as the inserts are made), so a client's
 * retry of an acknowledged batch costs what its first POST did, whatever its size.
 */
async function outcomesOf(tx: Tx, docs: readonly ResultDocument[], { created, hashes, firstOfKey }: StoredClients): Promise<IngestOutcome[]> {
  const notCreated = docs.map((_, i) => i).filter((i) => !created.has(i));
  const keys = notCreated.map((i) => ({ i, run_id: docs[i]!.run.id, name: docs[i]!.phase.name, client_index: docs[i]!.client.index }));
  const existing = keys.length
    ? await tx.$queryRaw<{ i: number; hash: string }[]>`
        SELECT x.i, c.document_hash AS hash
        FROM jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) AS x(i int, run_id text, name text, client_index int)
        JOIN phases p ON p.run_id = x.run_id AND p.name = x.name
        JOIN client_results c ON c.phase_id = p.id AND c.client_index = x.client_index`
    : [];
  const existingHash = new Map(existing.map((e) => [Number(e.i), e.hash]));
  return docs.map((d, i) => {
    const base = { runId: d.run.id, phase: d.phase.name, clientIndex: d.client.index };
    if (created.has(i)) return { ...base, status: "created" as const };
    // What is stored under its key (by an earlier document of this batch, or before it), else the batch's first of its key.
    const stored = existingHash.get(i) ?? hashes[firstOfKey.get(keyOf(d.run.id, d.phase.name, d.client.index))!];
    const same = stored === hashes[i] || (existingHash.has(i) && stored === legacyDocumentHash(d));
    return { ...base, status: same ? ("duplicate" as const) : ("conflict" as const) };
  });
}
