import { GetObjectCommand, paginateListObjectsV2, type S3Client } from "@aws-sdk/client-s3";
import { clientHistograms } from "../../model/hdr/client-histograms.js";
import { type InstanceStatus, parseInstanceStatus } from "../../model/instance-status.js";
import { histogramProblems } from "../../model/result-checks.js";
import { type ResultDocument, ResultDocumentSchema } from "../../model/result-document.js";
import { checkAgainst, type FieldError, HistogramBudget } from "../../model/result-validation.js";
import { classifyKey, parseStatusKey, relativeToPrefix, runPrefix, withPrefix } from "../../model/results-layout.js";
import { instanceSpans } from "../../model/run-cost.js";
import type { Db } from "../db/client.js";
import {
  type IngestExtras,
  type IngestOutcome,
  ingestDocuments,
  PhaseConflictError,
  RunConflictError,
} from "./ingest.js";
import { storeSpan } from "./instance-spans.js";

export interface S3ImportRequest {
  bucket: string;
  /** The results prefix the runner wrote under (objects are <prefix>/runs/<runId>/...). */
  prefix?: string;
  /** Only this run. */
  runId?: string;
}

export interface S3ImportReport {
  scanned: number;
  /** result.json objects imported now (new key or new ETag). */
  imported: number;
  /** result.json objects already imported with the same ETag. */
  unchanged: number;
  created: number;
  duplicates: number;
  /** Objects refused because the store holds something else under their key or run (409 by POST), with why. */
  conflicts: { key: string; message?: string }[];
  /** Objects that are no result (not JSON, not the contract, an HDR log that does not decode), each named by key. */
  invalid: { key: string; errors: FieldError[] }[];
  /** Objects under the prefix the results layout does not know (".../result.json/", ".../RESULT.JSON"): not imported. */
  skipped: { key: string; reason: string }[];
  runs: string[];
  /** Instances' boot status markers stored now as their run's spans (what its realized cost bills). */
  spans: number;
}

export interface S3ImportOptions {
  /** An object larger than this is not downloaded: reported invalid (POST /results has the same body limit). */
  maxObjectBytes?: number;
}

interface Listed {
  key: string;
  etag: string;
  size: number;
}

async function listAll(s3: S3Client, bucket: string, prefix: string): Promise<Listed[]> {
  const out: Listed[] = [];
  // The SDK's paginator follows the continuation tokens (1,000 keys a page).
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: prefix })) {
    for (const o of page.Contents ?? []) if (o.Key && o.ETag) out.push({ key: o.Key, etag: o.ETag, size: o.Size ?? 0 });
  }
  return out;
}

async function getText(s3: S3Client, bucket: string, key: string): Promise<string> {
  const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await res.Body?.transformToString("utf-8")) ?? "";
}

const BATCH = 200;
const DEFAULT_MAX_OBJECT_BYTES = 16 * 1024 * 1024;

/** Errors that belong to one document (the store refused it as it is); anything else may be the store's and is retried. */
const isDocumentError = (e: unknown) => e instanceof RunConflictError || e instanceof PhaseConflictError;

/**
 * Imports every result.json of the runs under bucket/prefix that is new or whose ETag changed, idempotently
 * (by object key + ETag, and the store's unique keys). Each client's HDR interval logs (hdr/<OP>.hdr) are merged
 * per operation over the whole phase and stored with the result, so phase percentiles come from merged histograms.
 * One bad object never stops the others: it is reported by key (invalid or conflict), recorded with its ETag so it
 * is not reported again until it changes, and the rest import. An HDR log that does not decode is reported by its
 * key and its result imported without that operation's histogram (its percentiles then say max-of-clients).
 */
export async function importFromS3(
  db: Db,
  s3: S3Client,
  req: S3ImportRequest,
  options: S3ImportOptions = {},
): Promise<S3ImportReport> {
  const maxBytes = options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
  const root = withPrefix(req.prefix, req.runId ? runPrefix(req.runId) : "runs/");
  const listed = await listAll(s3, req.bucket, root);
  const report: S3ImportReport = {
    scanned: listed.length,
    imported: 0,
    unchanged: 0,
    created: 0,
    duplicates: 0,
    conflicts: [],
    invalid: [],
    skipped: [],
    runs: [],
    spans: 0,
  };
  const invalid = async (obj: Listed, errors: FieldError[]) => {
    report.invalid.push({ key: obj.key, errors });
    await recordImport(
      db,
      req.bucket,
      obj,
      "invalid",
      0,
      errors
        .map((e) => `${e.path} ${e.message}`)
        .join("; ")
        .slice(0, 2000),
    );
  };
  const tooLarge = (obj: Listed): FieldError[] =>
    obj.size > maxBytes
      ? [{ path: "/", message: `object of ${obj.size} bytes is over the import limit of ${maxBytes} bytes` }]
      : [];

  const hdrByClient = new Map<string, (Listed & { operation: string })[]>();
  const results: (Listed & {
    clientKey: string;
    runId: string;
    phaseIndex: number;
    phaseName: string;
    clientIndex: number;
  })[] = [];
  const markers: Marker[] = [];
  for (const o of listed) {
    const rel = relativeToPrefix(req.prefix, o.key);
    const status = rel === undefined ? undefined : parseStatusKey(rel);
    if (status) markers.push({ ...o, ...status });
    const parsed = rel === undefined ? ({ kind: "unknown" } as const) : classifyKey(rel);
    if (parsed.kind === "unknown") {
      report.skipped.push({ key: o.key, reason: `not a key of the results layout (${RESULT_LAYOUT}): not imported` });
      continue;
    }
    if (parsed.kind === "layout" || parsed.kind === "manifest" || parsed.kind === "stdout" || parsed.kind === "stderr")
      continue;
    const clientKey = `${parsed.runId}/${parsed.phaseIndex}-${parsed.phaseName}/${parsed.clientIndex}`;
    if (parsed.kind === "hdr")
      hdrByClient.set(clientKey, [...(hdrByClient.get(clientKey) ?? []), { ...o, operation: parsed.operation }]);
    else
      results.push({
        ...o,
        clientKey,
        runId: parsed.runId,
        phaseIndex: parsed.phaseIndex,
        phaseName: parsed.phaseName,
        clientIndex: parsed.clientIndex,
      });
  }

  const seen = await db.s3Import.findMany({
    where: { bucket: req.bucket, key: { in: results.map((r) => r.key) } },
    select: { key: true, etag: true },
  });
  const seenEtag = new Map(seen.map((s) => [s.key, s.etag]));
  const todo = results.filter((r) => seenEtag.get(r.key) !== r.etag);
  report.unchanged = results.length - todo.length;

  for (let i = 0; i < todo.length; i += BATCH) {
    const batch = todo.slice(i, i + BATCH);
    const docs: ResultDocument[] = [];
    const extras: IngestExtras[] = [];
    const keys: Listed[] = [];
    for (const obj of batch) {
      if (tooLarge(obj).length) {
        await invalid(obj, tooLarge(obj));
        continue;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(await getText(s3, req.bucket, obj.key));
      } catch (e) {
        await invalid(obj, [{ path: "/", message: `not JSON: ${(e as Error).message}` }]);
        continue;
      }
      const errors = checkAgainst(ResultDocumentSchema, doc);
      if (errors.length) {
        await invalid(obj, errors);
        continue;
      }
      // Whoever may write one run's prefix must not store results under another run, phase or client.
      const misplaced = keyDisagreements(obj, doc as ResultDocument);
      if (misplaced.length) {
        await invalid(obj, misplaced);
        continue;
      }
      // Documents of this runner carry each operation's histogram; older ones get it merged from their hdrLogs here,
      // log by log: one that does not decode loses its operation's histogram, not the result.
      const logs = hdrByClient.get(obj.clientKey) ?? [];
      let hdrHistograms: Record<string, string> | undefined;
      if (!(doc as ResultDocument).hdrHistograms && logs.length) {
        hdrHistograms = {};
        for (const l of logs) {
          if (tooLarge(l).length) {
            await invalid(l, tooLarge(l));
            continue;
          }
          let merged: Record<string, string>;
          try {
            merged = clientHistograms([
              { operation: l.operation, text: await getText(s3, req.bucket, l.key), source: l.key },
            ]);
          } catch (e) {
            await invalid(l, [{ path: "/", message: `HDR log does not decode: ${(e as Error).message}` }]);
            continue;
          }
          // The contract's rule for a histogram (model/result-checks.ts): of a group the document printed, and agreeing with it.
          const disagree = histogramProblems(merged, new HistogramBudget(), (doc as ResultDocument).result.operations);
          if (disagree.length) await invalid(l, disagree);
          else Object.assign(hdrHistograms, merged);
        }
      }
      docs.push(doc as ResultDocument);
      extras.push(hdrHistograms ? { hdrHistograms } : {});
      keys.push(obj);
    }
    await ingestBatch(db, req.bucket, docs, extras, keys, report);
  }
  await importMarkers(db, s3, req.bucket, markers, report);
  return report;
}

type Marker = Listed & { runId: string; instance: string };

/**
 * The instances' status markers of runs the store holds, new or changed (a heartbeat rewrites them), stored as the
 * runs' spans. A marker of a run not stored yet waits, unrecorded, for its run's results; one that is no status, or
 * has no boot time, is reported by key.
 */
async function importMarkers(db: Db, s3: S3Client, bucket: string, markers: readonly Marker[], report: S3ImportReport) {
  if (markers.length === 0) return;
  const runs = await db.run.findMany({
    where: { id: { in: [...new Set(markers.map((m) => m.runId))] } },
    select: { id: true, dataInstanceType: true, clientInstanceType: true },
  });
  const runById = new Map(runs.map((r) => [r.id, r]));
  const held = markers.filter((m) => runById.has(m.runId));
  const seen = await db.s3Import.findMany({
    where: { bucket, key: { in: held.map((m) => m.key) } },
    select: { key: true, etag: true },
  });
  const seenEtag = new Map(seen.map((s) => [s.key, s.etag]));
  for (const m of held.filter((h) => seenEtag.get(h.key) !== h.etag)) {
    const status =
      m.size > DEFAULT_MAX_OBJECT_BYTES ? undefined : parseInstanceStatus(await getText(s3, bucket, m.key));
    const problem = markerProblem(m, status);
    if (problem) {
      report.invalid.push({ key: m.key, errors: [{ path: "/", message: problem }] });
      await recordImport(db, bucket, m, "invalid", 0, problem.slice(0, 2000));
      continue;
    }
    if (await storeSpan(db, m.runId, runById.get(m.runId)!, status!)) report.spans++;
    await recordImport(db, bucket, m, "imported", 0, null);
  }
}

/** Why a marker cannot be stored as its instance's span; undefined when it can. */
function markerProblem(m: Marker, status: InstanceStatus | undefined): string | undefined {
  if (!status) return "not an instance status (model/instance-status.ts), or over the import limit";
  if (status.instance !== m.instance) return `the key names instance ${m.instance}, the status ${status.instance}`;
  try {
    instanceSpans([status]);
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

const RESULT_LAYOUT = "runs/<run>/phases/<index>-<name>/client-<i>/result.json and hdr/<OP>.hdr beside it";

/** Where the key and the document under it name different runs, phases or clients: each field that differs. */
function keyDisagreements(
  key: { runId: string; phaseIndex: number; phaseName: string; clientIndex: number },
  doc: ResultDocument,
): FieldError[] {
  const differs: FieldError[] = [];
  const says = (path: string, what: string, inKey: unknown, inDoc: unknown) => {
    if (inKey !== inDoc)
      differs.push({
        path,
        message: `the key names ${what} ${JSON.stringify(inKey)}, the document ${JSON.stringify(inDoc)}: a result is imported only under its own run, phase and client`,
      });
  };
  says("/run/id", "run", key.runId, doc.run.id);
  says("/phase/index", "phase index", key.phaseIndex, doc.phase.index);
  says("/phase/name", "phase", key.phaseName.normalize("NFC"), doc.phase.name.normalize("NFC"));
  says("/client/index", "client", key.clientIndex, doc.client.index);
  return differs;
}

/**
 * The batch in one transaction; when the store refuses it, document by document, so the one it refuses is reported
 * by key and the others are stored. A refusal that is the document's (a conflict) is recorded with its ETag; any
 * other is reported and left unrecorded, to be tried again on the next import.
 */
async function ingestBatch(
  db: Db,
  bucket: string,
  docs: ResultDocument[],
  extras: IngestExtras[],
  keys: Listed[],
  report: S3ImportReport,
) {
  const record = async (j: number, o: IngestOutcome) => {
    if (o.status === "created") report.created++;
    else if (o.status === "duplicate") report.duplicates++;
    else
      report.conflicts.push({
        key: keys[j]!.key,
        message: "stored already with other content under the same run, phase and client",
      });
    await recordImport(
      db,
      bucket,
      keys[j]!,
      o.status === "conflict" ? "conflict" : "imported",
      o.status === "created" ? 1 : 0,
      null,
    );
    report.imported++;
    if (!report.runs.includes(o.runId)) report.runs.push(o.runId);
  };
  try {
    const outcomes = await ingestDocuments(db, docs, extras);
    for (let j = 0; j < outcomes.length; j++) await record(j, outcomes[j]!);
    return;
  } catch {
    // One document spoils the batch: find it below.
  }
  for (let j = 0; j < docs.length; j++) {
    try {
      const [outcome] = await ingestDocuments(db, [docs[j]!], [extras[j]]);
      await record(j, outcome!);
    } catch (e) {
      const message = (e as Error).message;
      if (isDocumentError(e)) {
        report.conflicts.push({ key: keys[j]!.key, message });
        await recordImport(db, bucket, keys[j]!, "conflict", 0, message.slice(0, 2000));
      } else {
        report.invalid.push({
          key: keys[j]!.key,
          errors: [{ path: "/", message: `not stored (tried again on the next import): ${message.slice(0, 500)}` }],
        });
      }
    }
  }
}

async function recordImport(
  db: Db,
  bucket: string,
  obj: Listed,
  status: string,
  documents: number,
  error: string | null,
) {
  await db.s3Import.upsert({
    where: { bucket_key: { bucket, key: obj.key } },
    create: { bucket, key: obj.key, etag: obj.etag, status, documents, error },
    update: { etag: obj.etag, status, documents, error, importedAt: new Date() },
  });
}
