import { GetObjectCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { clientHistograms } from "../../model/hdr/client-histograms.js";
import { checkAgainst, ResultDocumentSchema, type FieldError, type ResultDocument } from "../../model/result-document.js";
import { parseResultsKey, relativeToPrefix, runPrefix, withPrefix } from "../../model/results-layout.js";
import type { Db } from "../db/open.js";
import { ingestDocuments, type IngestExtras } from "./ingest.js";

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
  conflicts: { key: string }[];
  invalid: { key: string; errors: FieldError[] }[];
  runs: string[];
}

interface Listed {
  key: string;
  etag: string;
}

async function listAll(s3: S3Client, bucket: string, prefix: string): Promise<Listed[]> {
  const out: Listed[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key && o.ETag) out.push({ key: o.Key, etag: o.ETag });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

async function getText(s3: S3Client, bucket: string, key: string): Promise<string> {
  const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await res.Body?.transformToString("utf-8")) ?? "";
}

const BATCH = 200;

/**
 * Imports every result.json of the runs under bucket/prefix that is new or whose ETag changed, idempotently
 * (by object key + ETag, and the store's unique keys). Each client's HDR interval logs (hdr/<OP>.hdr) are merged
 * per operation over the whole phase and stored with the result, so phase percentiles come from merged histograms.
 */
export async function importFromS3(db: Db, s3: S3Client, req: S3ImportRequest): Promise<S3ImportReport> {
  const root = withPrefix(req.prefix, req.runId ? runPrefix(req.runId) : "runs/");
  const listed = await listAll(s3, req.bucket, root);
  const report: S3ImportReport = { scanned: listed.length, imported: 0, unchanged: 0, created: 0, duplicates: 0, conflicts: [], invalid: [], runs: [] };

  const hdrByClient = new Map<string, { key: string; operation: string }[]>();
  const results: (Listed & { clientKey: string; runId: string })[] = [];
  for (const o of listed) {
    const rel = relativeToPrefix(req.prefix, o.key);
    const parsed = rel === undefined ? undefined : parseResultsKey(rel);
    if (!parsed || parsed.kind === "manifest" || parsed.kind === "stdout" || parsed.kind === "stderr") continue;
    const clientKey = `${parsed.runId}/${parsed.phaseIndex}-${parsed.phaseName}/${parsed.clientIndex}`;
    if (parsed.kind === "hdr") hdrByClient.set(clientKey, [...(hdrByClient.get(clientKey) ?? []), { key: o.key, operation: parsed.operation }]);
    else results.push({ ...o, clientKey, runId: parsed.runId });
  }

  const seen = await db.s3Import.findMany({ where: { bucket: req.bucket, key: { in: results.map((r) => r.key) } }, select: { key: true, etag: true } });
  const seenEtag = new Map(seen.map((s) => [s.key, s.etag]));
  const todo = results.filter((r) => seenEtag.get(r.key) !== r.etag);
  report.unchanged = results.length - todo.length;

  for (let i = 0; i < todo.length; i += BATCH) {
    const batch = todo.slice(i, i + BATCH);
    const docs: ResultDocument[] = [];
    const extras: IngestExtras[] = [];
    const keys: Listed[] = [];
    for (const obj of batch) {
      let doc: unknown;
      try {
        doc = JSON.parse(await getText(s3, req.bucket, obj.key));
      } catch (e) {
        report.invalid.push({ key: obj.key, errors: [{ path: "/", message: `not JSON: ${(e as Error).message}` }] });
        await recordImport(db, req.bucket, obj, "invalid", 0, "not JSON");
        continue;
      }
      const errors = checkAgainst(ResultDocumentSchema, doc);
      if (errors.length) {
        report.invalid.push({ key: obj.key, errors });
        await recordImport(db, req.bucket, obj, "invalid", 0, errors.map((e) => `${e.path} ${e.message}`).join("; ").slice(0, 2000));
        continue;
      }
      // Documents of this runner carry each operation's histogram; older ones get it merged from their hdrLogs here.
      const logs = hdrByClient.get(obj.clientKey) ?? [];
      let hdrHistograms: Record<string, string> | undefined;
      if (!(doc as ResultDocument).hdrHistograms && logs.length) {
        const texts = [];
        for (const l of logs) texts.push({ operation: l.operation, text: await getText(s3, req.bucket, l.key), source: l.key });
        hdrHistograms = clientHistograms(texts);
      }
      docs.push(doc as ResultDocument);
      extras.push(hdrHistograms ? { hdrHistograms } : {});
      keys.push(obj);
    }
    const outcomes = await ingestDocuments(db, docs, extras);
    for (let j = 0; j < outcomes.length; j++) {
      const o = outcomes[j]!;
      if (o.status === "created") report.created++;
      else if (o.status === "duplicate") report.duplicates++;
      else report.conflicts.push({ key: keys[j]!.key });
      await recordImport(db, req.bucket, keys[j]!, o.status === "conflict" ? "conflict" : "imported", o.status === "created" ? 1 : 0, null);
      report.imported++;
      if (!report.runs.includes(o.runId)) report.runs.push(o.runId);
    }
  }
  return report;
}

async function recordImport(db: Db, bucket: string, obj: Listed, status: string, documents: number, error: string | null) {
  await db.s3Import.upsert({
    where: { bucket_key: { bucket, key: obj.key } },
    create: { bucket, key: obj.key, etag: obj.etag, status, documents, error },
    update: { etag: obj.etag, status, documents, error, importedAt: new Date() },
  });
}
