import { documentRepeats } from "../../model/aggregate/repeats.js";
import { normalizeIdentifiers } from "../../model/identifiers.js";
import type { ResultDocument } from "../../model/result-document.js";
import { type Facts, factDifferences, phaseFacts, runFacts, showFact, sortedJson } from "../../model/shared-facts.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/client.js";
import { type SqlWriter, writeTransaction } from "../db/pg-direct.js";
import type { ClientOperationRow, ClientsInHand } from "./aggregates/phase-operations.js";
import { refreshAggregates } from "./aggregates/refresh.js";
import { noteWrite, recordWrite } from "./data-version.js";
import { documentHash, legacyDocumentHash, statusSeriesJson } from "./document-hash.js";
import {
  bulkInsert,
  bulkInsertColumns,
  CLIENT_RESULTS,
  clientResultRow,
  OPERATION_STATS,
  operationRows,
  PHASES,
  type PhaseFacts,
  phaseFactsOf,
  phaseRow,
  type Row,
  RUNS,
  runRow,
  SOURCES,
  STATUS_SERIES,
  VALIDITY_VERDICTS,
} from "./ingest-tables.js";
import { keepTotals } from "./phase-totals.js";
import { sourceIdOf } from "./sources.js";
import { type Touched, touchedByDocuments } from "./touched.js";
import { applyWriteSettings, hasLz4 } from "./write-settings.js";

/** What happened to one document: stored now, already stored identically, or a different document under its key. */
export type IngestStatus = "created" | "duplicate" | "conflict";

export interface IngestOutcome {
  runId: string;
  phase: string;
  clientIndex: number;
  status: IngestStatus;
}

/**
 * A document whose run-level (or phase-level) facts differ from what is stored under its run (or phase), or from an
 * earlier document of the same batch (`otherIndex`): refused, nothing written. `docIndex` and `pointer` name the fact.
 */
export class FactConflictError extends Error {
  constructor(
    readonly docIndex: number,
    readonly pointer: string,
    message: string,
    readonly otherIndex: number | null,
  ) {
    super(`${message} (nothing stored)`);
  }
}

export class RunConflictError extends FactConflictError {
  constructor(
    runId: string,
    docIndex: number,
    pointer: string,
    before: unknown,
    given: unknown,
    otherIndex: number | null,
  ) {
    const field = pointer.replace(/^\/run\//, "");
    super(
      docIndex,
      pointer,
      otherIndex === null
        ? `run ${runId} is stored with ${field} ${showFact(pointer, before)}; this document says ${showFact(pointer, given)}: every document of a run states its facts alike`
        : `documents ${otherIndex} and ${docIndex} of this batch disagree on run ${runId}'s ${field} (${showFact(pointer, before)} and ${showFact(pointer, given)}): every document of a run states its facts alike`,
      otherIndex,
    );
  }
}

export class PhaseConflictError extends FactConflictError {
  constructor(
    runId: string,
    phase: string,
    docIndex: number,
    pointer: string,
    before: unknown,
    given: unknown,
    otherIndex: number | null,
  ) {
    const field = pointer.replace(/^\/phase\//, "");
    super(
      docIndex,
      pointer,
      otherIndex === null
        ? `phase ${phase} of run ${runId} is stored with ${field} ${showFact(pointer, before)}; this document says ${showFact(pointer, given)}: every client of a phase ran it alike`
        : `documents ${otherIndex} and ${docIndex} of this batch disagree on phase ${phase} of run ${runId}'s ${field} (${showFact(pointer, before)} and ${showFact(pointer, given)}): every client of a phase ran it alike`,
      otherIndex,
    );
  }
}

/** Extra per-client data an importer may attach (not part of the posted document): merged HDR histograms per operation. */
export interface IngestExtras {
  hdrHistograms?: Record<string, string>;
}

export { MEASURED_SOURCE, sourceIdOf } from "./sources.js";

const keyOf = (runId: string, phase: string, client: number) => `${runId}\u0000${phase}\u0000${client}`;

export interface IngestOptions {
  /** Only the reference loader (prisma/reference) stores published figures. */
  allowPublished?: boolean;
  /** What the thread that read the body computed already (the ingest route's body reader): not computed again. */
  digest?: DocumentsDigest;
}

/**
 * Each document's status series JSON and hash, as statusSeriesJson and documentHash give them for the document in NFC
 * (computed where the body was read, off the API's thread); the documents given may then come without their series.
 * `legacyHash` gives legacyDocumentHash of document i as sent, for the rare retry whose stored hash is not the current one.
 */
export interface DocumentsDigest {
  seriesJson: readonly string[];
  hashes: readonly string[];
  legacyHash: (i: number) => string;
}

/**
 * Stores validated documents atomically (all or none), idempotently: the unique keys (run; run + phase name;
 * phase + client index) and INSERT ... ON CONFLICT DO NOTHING decide, never a check-then-insert, so the same
 * document sent twice or by two processes at once is stored once.
 */
export async function ingestDocuments(
  db: Db,
  given: readonly ResultDocument[],
  extras: readonly (IngestExtras | undefined)[] = [],
  options: IngestOptions = {},
): Promise<IngestOutcome[]> {
  if (given.length === 0) return [];
  const { digest } = options;
  if (digest && (digest.hashes.length !== given.length || digest.seriesJson.length !== given.length))
    throw new Error(`a digest of ${digest.hashes.length} documents given with ${given.length} documents`);
  // Names stored in Unicode NFC, whichever way the documents came (model/identifiers.ts): one phase, one key.
  const docs = given.map(normalizeIdentifiers);
  if (!options.allowPublished) {
    const published = docs.find((d) => d.run.source.kind === "published");
    if (published)
      throw new Error(`run ${published.run.id}: published figures are stored only by the reference loader`);
  }
  const lz4 = await hasLz4(db);
  // What this write touched (the runs of the documents it stores now): the cached answers it can change go.
  const touched: Touched = { runs: [] };
  // On Postgres on the pool directly (api/db/pg-direct.ts: Prisma's raw path cost more than the statements).
  const outcomes = await writeTransaction(
    db,
    async (tx) => {
      // JIT off, lz4 for the series where the server has it (write-settings.ts): for this transaction only.
      await applyWriteSettings(tx, { lz4 });
      await storeSources(tx, docs);
      await storeRuns(tx, docs);
      const phaseId = await storePhases(tx, docs);
      const clients = await storeClientResults(tx, docs, phaseId, options.digest);
      const inHand = await storeClientDetails(tx, docs, extras, clients, phaseId);
      // Rows other writes share are taken last, each held for the fewest statements: the outcomes read only this
      // write's keys; the phases' totals lock those phases; the groups' marks (refresh.ts) and the change log's version
      // row, which every concurrent write of the same groups waits for until this one commits, come at the end.
      const outcomes = await outcomesOf(tx, docs, clients, (i) =>
        options.digest ? options.digest.legacyHash(i) : legacyDocumentHash(docs[i]!),
      );
      await keepTotals(tx, clients.touchedPhases);
      await keepRunEnds(tx, docs, clients.created);
      await refreshAggregates(tx, clients.touchedPhases, inHand);
      touched.runs = touchedByDocuments(
        [...clients.created.keys()].map((i) => docs[i]!),
        (d) => d.run.source.kind,
      );
      // What the views show changed: the cached answers go (last statement, so its row lock is held only to commit).
      if (clients.created.size > 0) await recordWrite(tx, touched);
      return outcomes;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (touched.runs.length > 0) noteWrite(db, touched);
  return outcomes;
}

const phaseKey = (runId: string, phase: string) => `${runId}\u0000${phase}`;

interface StoredRun {
  id: string;
  scenario: string;
  engine: string;
  engine_version: string;
  preset: string;
  nodes: number;
  data_instance_type: string;
  client_instance_type: string;
  storage: string | null;
  region: string | null;
  replication: number;
  ycsb_version: string;
  bindings_version: string | null;
  ycsb_lab_version: string;
  provenance: unknown;
  repeat: number;
  started_at: Date;
  finished_at: Date | null;
  stand_in: string | null;
  source_id: string;
}

/**
 * A stored run's facts, as runFacts states a document's (model/shared-facts.ts). A run stores only its source's id
 * (a study by its seed): the citation is the source row's, written by whichever run or reference load came first,
 * so the source compares by id.
 */
function storedRunFacts(r: StoredRun): Facts {
  return {
    "/run/scenario": r.scenario,
    "/run/engine": r.engine,
    "/run/engineVersion": r.engine_version,
    "/run/preset": r.preset,
    "/run/nodes": Number(r.nodes),
    "/run/instanceTypes/data": r.data_instance_type,
    "/run/instanceTypes/client": r.client_instance_type,
    "/run/storage": r.storage,
    "/run/region": r.region,
    "/run/replication": Number(r.replication),
    "/run/ycsbVersion": r.ycsb_version,
    "/run/bindingsVersion": r.bindings_version,
    "/run/ycsbLabVersion": r.ycsb_lab_version,
    "/run/provenance": sortedJson(r.provenance),
    "/run/repeat": Number(r.repeat),
    "/run/startedAt": new Date(r.started_at).getTime(),
    "/run/standIn": r.stand_in,
    "/run/source": r.source_id,
  };
}

interface StoredPhase {
  id: number;
  run_id: string;
  name: string;
  index: number;
  kind: string;
  workload: string | null;
  threads_per_client: number;
  target: number | null;
  clients: number;
  repeat: number;
  operation_count: number | null;
  operation_count_per: string | null;
}

function storedPhaseFacts(p: StoredPhase): Facts {
  const n = (v: unknown) => (v === null ? null : Number(v));
  return {
    "/phase/index": Number(p.index),
    "/phase/kind": p.kind,
    "/phase/workload": p.workload,
    "/phase/threadsPerClient": Number(p.threads_per_client),
    "/phase/target": n(p.target),
    "/phase/clients": Number(p.clients),
    "/phase/repeat": Number(p.repeat),
    "/phase/operationCount": n(p.operation_count),
    "/phase/operationCountPer": p.operation_count_per,
  };
}

async function storeSources(tx: SqlWriter, docs: readonly ResultDocument[]): Promise<void> {
  const sources = new Map<string, Row<typeof SOURCES>>();
  for (const d of docs) {
    const s = d.run.source;
    sources.set(sourceIdOf(d), {
      id: sourceIdOf(d),
      kind: s.kind,
      citation: s.kind === "published" ? s.citation : null,
      seed: s.kind === "published" ? (s.seed ?? null) : null,
    });
  }
  await tx.$executeRaw(bulkInsert(SOURCES, [...sources.values()], Prisma.sql`ON CONFLICT (id) DO NOTHING`));
}

/** The batch's runs, new ones stored; a document whose run facts differ from what is stored, or from the batch's first document of its run, is refused. */
async function storeRuns(tx: SqlWriter, docs: readonly ResultDocument[]): Promise<void> {
  const first = new Map<string, number>();
  docs.forEach((d, i) => {
    const j = first.get(d.run.id);
    if (j === undefined) first.set(d.run.id, i);
    else {
      const [difference] = factDifferences(runFacts(docs[j]!), runFacts(d));
      if (difference) throw new RunConflictError(d.run.id, i, difference[0], difference[1], difference[2], j);
    }
  });
  const runs = [...first.values()].map((i) => docs[i]!);
  await tx.$executeRaw(
    bulkInsert(
      RUNS,
      runs.map((d) => runRow({ ...d.run, repeat: documentRepeats(d).run, sourceId: sourceIdOf(d) })),
      Prisma.sql`ON CONFLICT (id) DO NOTHING`,
    ),
  );
  // Each run looked up by its key (OFFSET 0 keeps a lookup a lookup: a planner may otherwise scan every run stored).
  const stored = await tx.$queryRaw<StoredRun[]>`
    SELECT r.id, r.scenario, r.engine, r.engine_version, r.preset, r.nodes, r.data_instance_type, r.client_instance_type, r.storage, r.region,
           r.replication, r.ycsb_version, r.bindings_version, r.ycsb_lab_version, r.provenance, r.repeat, r.started_at, r.finished_at, r.stand_in,
           r.source_id
    FROM unnest(${[...first.keys()]}::text[]) AS k(id)
    CROSS JOIN LATERAL (SELECT * FROM runs r WHERE r.id = k.id OFFSET 0) r`;
  for (const row of stored) {
    const i = first.get(row.id)!;
    const [difference] = factDifferences(storedRunFacts(row), {
      ...runFacts(docs[i]!),
      "/run/source": sourceIdOf(docs[i]!),
    });
    if (difference) throw new RunConflictError(row.id, i, difference[0], difference[1], difference[2], null);
  }
}

/** The batch's phases, new ones stored, each checked against what is stored; their ids by run and phase name. */
async function storePhases(tx: SqlWriter, docs: readonly ResultDocument[]): Promise<Map<string, number>> {
  const phases = new Map<string, PhaseFacts>();
  const first = new Map<string, number>();
  docs.forEach((d, i) => {
    const k = phaseKey(d.run.id, d.phase.name);
    const j = first.get(k);
    if (j === undefined) {
      first.set(k, i);
      phases.set(k, phaseFactsOf(d, sourceIdOf(d)));
      return;
    }
    const [difference] = factDifferences(phaseFacts(docs[j]!), phaseFacts(d));
    if (difference)
      throw new PhaseConflictError(d.run.id, d.phase.name, i, difference[0], difference[1], difference[2], j);
  });
  const rows = [...phases.values()].map(phaseRow);
  await tx.$executeRaw(bulkInsert(PHASES, rows, Prisma.sql`ON CONFLICT (run_id, name) DO NOTHING`));
  // Each phase looked up by its key (run, name): joined whole, a planner hash-joined every phase stored.
  const stored = await tx.$queryRaw<StoredPhase[]>`
    SELECT p.id, p.run_id, p.name, p.index, p.kind, p.workload, p.threads_per_client, p.target, p.clients, p.repeat,
           p.operation_count, p.operation_count_per
    FROM unnest(${rows.map((p) => p.run_id as string)}::text[], ${rows.map((p) => p.name as string)}::text[]) AS x(run_id, name)
    CROSS JOIN LATERAL (SELECT * FROM phases p WHERE p.run_id = x.run_id AND p.name = x.name OFFSET 0) p`;
  for (const row of stored) {
    const i = first.get(phaseKey(row.run_id, row.name))!;
    const [difference] = factDifferences(storedPhaseFacts(row), phaseFacts(docs[i]!));
    if (difference)
      throw new PhaseConflictError(row.run_id, row.name, i, difference[0], difference[1], difference[2], null);
  }
  return new Map(stored.map((p) => [phaseKey(p.run_id, p.name), Number(p.id)]));
}

interface StoredClients {
  /** Document index -> the client result created for it now. */
  created: Map<number, number>;
  /** Phases that got a client now: their totals are kept. */
  touchedPhases: number[];
  hashes: readonly string[];
  /** Each document's status series as JSON, written once for its hash and its stored row. */
  seriesJson: readonly string[];
  /** Per client key, the first document of the batch with it (later ones are duplicates or conflicts of it). */
  firstOfKey: Map<string, number>;
}

/** One client result per key (the first document of the batch with it), unless one is stored already. */
async function storeClientResults(
  tx: SqlWriter,
  docs: readonly ResultDocument[],
  phaseId: Map<string, number>,
  digest: DocumentsDigest | undefined,
): Promise<StoredClients> {
  const seriesJson = digest ? digest.seriesJson : docs.map(statusSeriesJson);
  const hashes = digest ? digest.hashes : docs.map((d, i) => documentHash(d, seriesJson[i]));
  const firstOfKey = new Map<string, number>();
  docs.forEach((d, i) => {
    const k = keyOf(d.run.id, d.phase.name, d.client.index);
    if (!firstOfKey.has(k)) firstOfKey.set(k, i);
  });
  const candidates = [...firstOfKey.values()];
  const rows = candidates.map((i) =>
    clientResultRow(docs[i]!, phaseId.get(phaseKey(docs[i]!.run.id, docs[i]!.phase.name))!, hashes[i]!),
  );
  const inserted = await tx.$queryRaw<{ id: number; phase_id: number; client_index: number }[]>(
    bulkInsert(
      CLIENT_RESULTS,
      rows,
      Prisma.sql`ON CONFLICT (phase_id, client_index) DO NOTHING RETURNING id, phase_id, client_index`,
    ),
  );
  const insertedId = new Map(
    inserted.map((r) => [`${Number(r.phase_id)}\u0000${Number(r.client_index)}`, Number(r.id)]),
  );
  const created = new Map<number, number>();
  for (const i of candidates) {
    const d = docs[i]!;
    const id = insertedId.get(`${phaseId.get(phaseKey(d.run.id, d.phase.name))}\u0000${d.client.index}`);
    if (id !== undefined) created.set(i, id);
  }
  return {
    created,
    touchedPhases: [...new Set(inserted.map((r) => Number(r.phase_id)))],
    hashes,
    seriesJson,
    firstOfKey,
  };
}

/**
 * What hangs off each client result created now: operation groups, status series, verdict. Returns the operation
 * groups as written, for the phases' groups (refreshAggregates) to merge without reading them back.
 */
async function storeClientDetails(
  tx: SqlWriter,
  docs: readonly ResultDocument[],
  extras: readonly (IngestExtras | undefined)[],
  { created, seriesJson }: StoredClients,
  phaseId: Map<string, number>,
): Promise<ClientsInHand> {
  const ops: Row<typeof OPERATION_STATS>[] = [];
  const seriesIds: number[] = [];
  const seriesTexts: string[] = [];
  const verdicts: Row<typeof VALIDITY_VERDICTS>[] = [];
  const inHand: ClientOperationRow[] = [];
  for (const [i, clientResultId] of created) {
    const d = docs[i]!;
    // The importer's merge of the hdrLogs, else the histograms the runner wrote into the document.
    const rows = operationRows(d, clientResultId, extras[i]?.hdrHistograms ?? d.hdrHistograms ?? {});
    const client = {
      phaseId: phaseId.get(phaseKey(d.run.id, d.phase.name))!,
      clientId: clientResultId,
      clientIndex: d.client.index,
      throughputOpsSec: d.result.overall.throughputOpsSec,
      runtimeMs: d.result.overall.runtimeMs,
    };
    for (const o of rows) {
      ops.push(o);
      inHand.push({
        ...client,
        operation: o.operation as string,
        count: o.count,
        avgUs: o.avg_us,
        minUs: o.min_us,
        maxUs: o.max_us,
        percentilesUs: o.percentiles_us,
        hdrHistogram: o.hdr_histogram as string | null,
      });
    }
    seriesIds.push(clientResultId);
    seriesTexts.push(seriesJson[i]!);
    verdicts.push({ client_result_id: clientResultId, verdict: d.validity.verdict, reasons: d.validity.reasons });
  }
  if (ops.length) await tx.$executeRaw(bulkInsert(OPERATION_STATS, ops));
  if (seriesIds.length) {
    const columns = { client_result_id: JSON.stringify(seriesIds), points: `[${seriesTexts.join(",")}]` };
    await tx.$executeRaw(bulkInsertColumns(STATUS_SERIES, columns));
  }
  if (verdicts.length) await tx.$executeRaw(bulkInsert(VALIDITY_VERDICTS, verdicts));
  return { clientIds: [...created.values()], rows: inHand };
}

/**
 * A run's finishedAt: the end of its latest phase stored, raised as phases arrive (a runner writes each phase's
 * document as it ends and knows the run's end only after its last one; a document may state it, published ones do).
 * Only ever later: a client result is never changed, so the stored end cannot go back.
 */
async function keepRunEnds(
  tx: SqlWriter,
  docs: readonly ResultDocument[],
  created: Map<number, number>,
): Promise<void> {
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
async function outcomesOf(
  tx: SqlWriter,
  docs: readonly ResultDocument[],
  { created, hashes, firstOfKey }: StoredClients,
  legacyHash: (i: number) => string,
): Promise<IngestOutcome[]> {
  const notCreated = docs.map((_, i) => i).filter((i) => !created.has(i));
  const keys = notCreated.map((i) => ({
    i,
    run_id: docs[i]!.run.id,
    name: docs[i]!.phase.name,
    client_index: docs[i]!.client.index,
  }));
  // Each key looked up by its indexes (OFFSET 0 keeps a lookup a lookup): joined whole, a planner could hash-join every
  // phase and client result stored to answer a retried batch.
  const existing = keys.length
    ? await tx.$queryRaw<{ i: number; hash: string }[]>`
        SELECT x.i, c.document_hash AS hash
        FROM unnest(${keys.map((k) => k.i)}::int[], ${keys.map((k) => k.run_id)}::text[], ${keys.map((k) => k.name)}::text[],
                    ${keys.map((k) => k.client_index)}::int[]) AS x(i, run_id, name, client_index)
        CROSS JOIN LATERAL (SELECT p.id FROM phases p WHERE p.run_id = x.run_id AND p.name = x.name OFFSET 0) p
        CROSS JOIN LATERAL (
          SELECT c.document_hash FROM client_results c WHERE c.phase_id = p.id AND c.client_index = x.client_index OFFSET 0) c`
    : [];
  const existingHash = new Map(existing.map((e) => [Number(e.i), e.hash]));
  return docs.map((d, i) => {
    const base = { runId: d.run.id, phase: d.phase.name, clientIndex: d.client.index };
    if (created.has(i)) return { ...base, status: "created" as const };
    // What is stored under its key (by an earlier document of this batch, or before it), else the batch's first of its key.
    const stored = existingHash.get(i) ?? hashes[firstOfKey.get(keyOf(d.run.id, d.phase.name, d.client.index))!];
    const same = stored === hashes[i] || (existingHash.has(i) && stored === legacyHash(i));
    return { ...base, status: same ? ("duplicate" as const) : ("conflict" as const) };
  });
}
