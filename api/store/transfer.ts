import { Value } from "@sinclair/typebox/value";
import {
  type TransferLine as CheckedLine,
  TRANSFER_FORMAT,
  TRANSFER_LINE_KINDS,
  TransferBaselineSchema,
  TransferClientResultSchema,
  TransferInstanceSpanSchema,
  TransferOperationSchema,
  TransferPhaseSchema,
  TransferReferenceTableSchema,
  type TransferRun,
  TransferRunSchema,
  TransferSourceSchema,
  TransferStatusSeriesSchema,
  TransferValiditySchema,
} from "../../model/transfer-format.js";
import type { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/client.js";
import { type GroupedPhase, phaseGroupIds } from "./aggregates/keys.js";
import { refreshAggregates } from "./aggregates/refresh.js";
import { noteWrite, recordWrite } from "./data-version.js";
import { storedHdrLogs } from "./ingest-tables.js";
import { storedRow } from "./transfer-rows.js";

/**
 * Moving a store's contents to another store (`ycsb-lab export` / `ycsb-lab import`): the laptop's embedded PGlite to
 * the team's PostgreSQL and back, or a backup beside RDS snapshots. One JSON object per line, one line per:
 *   {"kind":"header", format, exportedAt}
 *   {"kind":"source", ...}               where a run's numbers come from (measured, or a seed paper)
 *   {"kind":"reference-table", ...}      a seed's table as transcribed (prisma/reference)
 *   {"kind":"run", run, instanceSpans, phases[ clientResults[ operations, statusSeries, hdrLogs, validity ] ]}   every run, measured and published
 *   {"kind":"baseline", ...}             a configuration's pinned run
 * Rows are written with their stored values (dates as ISO text, 64-bit counts as decimal text) and without the
 * database's own row numbers, so an import re-creates equal rows and a second export of the target equals the first.
 * Each line's schema is model/transfer-format.ts.
 */
export { TRANSFER_FORMAT };

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** A line as the export writes it (the import reads it back through model/transfer-format.ts). */
export type TransferLine =
  | { kind: "header"; format: string; exportedAt: string }
  | { kind: "source"; source: Record<string, Json> }
  | { kind: "reference-table"; table: Record<string, Json> }
  | { kind: "run"; run: Record<string, Json> }
  | { kind: "baseline"; baseline: Record<string, Json> };

/** Dates to ISO text, BigInt to decimal text, nothing else touched: a row as plain JSON. */
function plain(value: unknown): Json {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value as Json;
}

/** The store's own row numbers and the keys that repeat them: not part of what a row says. */
const omit = <T extends Record<string, unknown>>(row: T, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));

const RUN_PAGE = 200;

/** Every line of the store, in a stable order (sources, tables, runs by id, baselines). */
export async function* exportStore(db: Db, now = new Date()): AsyncGenerator<TransferLine> {
  yield { kind: "header", format: TRANSFER_FORMAT, exportedAt: now.toISOString() };
  for (const s of await db.source.findMany({ orderBy: { id: "asc" } }))
    yield { kind: "source", source: plain(s) as Record<string, Json> };
  for (const t of await db.referenceTable.findMany({ orderBy: { id: "asc" } }))
    yield { kind: "reference-table", table: plain(t) as Record<string, Json> };
  let cursor: string | undefined;
  for (;;) {
    const runs = await db.run.findMany({
      orderBy: { id: "asc" },
      take: RUN_PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      include: {
        instanceSpans: { orderBy: { instance: "asc" } },
        phases: {
          orderBy: { index: "asc" },
          include: {
            clientResults: {
              orderBy: { clientIndex: "asc" },
              include: {
                operations: { orderBy: { operation: "asc" } },
                statusSeries: true,
                validity: true,
              },
            },
          },
        },
      },
    });
    if (runs.length === 0) break;
    for (const r of runs) {
      const run = {
        // The headline is the run's phases summed (run-headlines.ts): an import counts it again, never reads it.
        ...omit(r, ["phases", "instanceSpans", "headline"]),
        instanceSpans: r.instanceSpans.map((i) => omit(i, ["runId"])),
        phases: r.phases.map((p) => ({
          ...omit(p, ["id", "runId", "clientResults"]),
          clientResults: p.clientResults.map((c) => ({
            ...omit(c, ["id", "phaseId", "runId", "operations", "statusSeries", "hdrLogs", "validity"]),
            operations: c.operations.map((o) => omit(o, ["id", "clientResultId"])),
            statusSeries: c.statusSeries ? omit(c.statusSeries, ["clientResultId"]) : null,
            // In their stored order (ingest-tables.ts storedHdrLogs): by operation then URI, as the export wrote them
            // (in code point order now; the table's rows were sorted in the database's collation).
            hdrLogs: c.hdrLogs,
            validity: c.validity ? omit(c.validity, ["clientResultId"]) : null,
          })),
        })),
      };
      yield { kind: "run", run: plain(run) as Record<string, Json> };
    }
    cursor = runs[runs.length - 1]!.id;
  }
  for (const b of await db.baseline.findMany({ orderBy: { configuration: "asc" } }))
    yield { kind: "baseline", baseline: plain(b) as Record<string, Json> };
}

export interface ImportReport {
  sources: { created: number; present: number };
  referenceTables: { created: number; present: number };
  runs: { created: number; present: number };
  baselines: { created: number; present: number };
}

export class TransferInputError extends Error {}

/** One line of an export, checked against its kind's schema; throws naming the line and the field. */
export function parseExportLine(text: string, lineNo: number): CheckedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new TransferInputError(`line ${lineNo}: not JSON: ${(err as Error).message}`);
  }
  const kind = (value as { kind?: unknown } | null)?.kind;
  const schema = TRANSFER_LINE_KINDS[String(kind) as CheckedLine["kind"]];
  if (!Object.hasOwn(TRANSFER_LINE_KINDS, String(kind)) || !schema) {
    throw new TransferInputError(`line ${lineNo}: unknown kind ${JSON.stringify(kind)}`);
  }
  const first = Value.Errors(schema, value).First();
  if (first) {
    const what = kind === "header" ? `not a ${TRANSFER_FORMAT} export header` : `a ${String(kind)} line`;
    throw new TransferInputError(`line ${lineNo}: ${what}: ${first.path || "/"}: ${first.message}`);
  }
  return value as CheckedLine;
}

/** The non-empty lines of an export with their numbers, read as a stream (an export can be larger than a string). */
export type ExportSource = () => AsyncIterable<string>;

async function* numbered(source: ExportSource): AsyncGenerator<{ line: CheckedLine; n: number }> {
  let n = 0;
  for await (const text of source()) {
    n++;
    if (text.trim()) yield { line: parseExportLine(text, n), n };
  }
}

/** What one pass over a valid export found: references to check against the store before writing. */
export interface CheckedExport {
  runs: number;
  sources: Set<string>;
  runIds: Set<string>;
  /** Sources named by runs, and runs named by baselines, with the first line naming each. */
  sourceRefs: Map<string, number>;
  runRefs: Map<string, number>;
}

/** Reads the whole export once and checks every line: a bad file is refused before the store is even opened. */
export async function checkExport(source: ExportSource): Promise<CheckedExport> {
  const out: CheckedExport = {
    runs: 0,
    sources: new Set(),
    runIds: new Set(),
    sourceRefs: new Map(),
    runRefs: new Map(),
  };
  let first = true;
  for await (const { line, n } of numbered(source)) {
    if (first !== (line.kind === "header")) {
      throw new TransferInputError(
        first
          ? `line ${n}: not a ${TRANSFER_FORMAT} export (its first line is the header \`ycsb-lab export\` writes)`
          : `line ${n}: a second header`,
      );
    }
    first = false;
    if (line.kind === "source") out.sources.add(line.source.id);
    if (line.kind === "run") {
      out.runs++;
      out.runIds.add(line.run.id);
      if (!out.sourceRefs.has(line.run.sourceId)) out.sourceRefs.set(line.run.sourceId, n);
    }
    if (line.kind === "baseline" && !out.runRefs.has(line.baseline.runId)) out.runRefs.set(line.baseline.runId, n);
  }
  if (first) throw new TransferInputError(`an empty file, not a ${TRANSFER_FORMAT} export`);
  return out;
}

/** A run naming a source, or a baseline naming a run, that neither the file nor the store holds. */
async function missingReferences(tx: Tx, checked: CheckedExport): Promise<string | undefined> {
  for (const [id, n] of checked.sourceRefs) {
    if (!checked.sources.has(id) && !(await tx.source.findUnique({ where: { id }, select: { id: true } }))) {
      return `line ${n}: the run's source "${id}" is neither in the file nor in this store`;
    }
  }
  for (const [id, n] of checked.runRefs) {
    if (!checked.runIds.has(id) && !(await tx.run.findUnique({ where: { id }, select: { id: true } }))) {
      return `line ${n}: the baseline's run "${id}" is neither in the file nor in this store`;
    }
  }
  return undefined;
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * Loads an export into `db` in one transaction: the whole file or nothing. Idempotently: whatever is already there
 * (a source, table or run by id, a baseline by configuration) is left as it is and counted as present, so importing
 * the same file twice creates nothing the second time. `checked` is what checkExport found in the same file; the
 * file is read a second time, line by line, as it is written.
 */
export async function importStore(db: Db, source: ExportSource, checked: CheckedExport): Promise<ImportReport> {
  const report = await db.$transaction(
    async (tx) => {
      const missing = await missingReferences(tx, checked);
      if (missing) throw new TransferInputError(missing);
      const report = emptyReport();
      for await (const { line, n } of numbered(source)) {
        await importLine(tx, line, report).catch((err: unknown) => {
          // What a schema cannot say (a phase name twice in a run, say) fails in the database: name the line.
          const said = String((err as Error).message ?? err)
            .trim()
            .split("\n")
            .pop();
          throw new TransferInputError(`line ${n}: the ${line.kind} could not be stored, nothing was written: ${said}`);
        });
      }
      if (Object.values(report).some((k) => k.created > 0)) await recordWrite(tx, { runs: [], everything: true });
      return report;
    },
    // One transaction however long the file: Prisma's interactive transactions end after 5 s unless told otherwise.
    { timeout: 24 * 3600_000, maxWait: 60_000 },
  );
  if (Object.values(report).some((k) => k.created > 0)) noteWrite(db, { runs: [], everything: true });
  return report;
}

const emptyReport = (): ImportReport => ({
  sources: { created: 0, present: 0 },
  referenceTables: { created: 0, present: 0 },
  runs: { created: 0, present: 0 },
  baselines: { created: 0, present: 0 },
});

/** Writes one checked line unless what it holds is already stored. */
async function importLine(db: Tx, l: CheckedLine, report: ImportReport): Promise<void> {
  if (l.kind === "source") {
    if (await db.source.findUnique({ where: { id: l.source.id } })) report.sources.present++;
    else {
      await db.source.create({ data: storedRow(TransferSourceSchema, l.source) as Prisma.SourceCreateInput });
      report.sources.created++;
    }
  } else if (l.kind === "reference-table") {
    if (await db.referenceTable.findUnique({ where: { id: l.table.id } })) report.referenceTables.present++;
    else {
      const data = storedRow(TransferReferenceTableSchema, l.table) as Prisma.ReferenceTableCreateInput;
      await db.referenceTable.create({ data });
      report.referenceTables.created++;
    }
  } else if (l.kind === "run") {
    if (await db.run.findUnique({ where: { id: l.run.id }, select: { id: true } })) report.runs.present++;
    else {
      await importRun(db, l.run);
      report.runs.created++;
    }
  } else if (l.kind === "baseline") {
    if (await db.baseline.findUnique({ where: { configuration: l.baseline.configuration } }))
      report.baselines.present++;
    else {
      const data = storedRow(TransferBaselineSchema, l.baseline) as Prisma.BaselineUncheckedCreateInput;
      await db.baseline.create({ data });
      report.baselines.created++;
    }
  }
}

/** A run with its phases, client results and their rows, as the store holds them. */
async function importRun(tx: Tx, r: TransferRun): Promise<void> {
  await tx.run.create({
    data: storedRow(TransferRunSchema, r, ["phases", "instanceSpans"]) as Prisma.RunUncheckedCreateInput,
  });
  const spans = (r.instanceSpans ?? []).map((i) => ({ ...storedRow(TransferInstanceSpanSchema, i), runId: r.id }));
  if (spans.length) await tx.instanceSpan.createMany({ data: spans as Prisma.InstanceSpanCreateManyInput[] });
  const phaseIds: number[] = [];
  for (const p of r.phases) phaseIds.push(await importPhase(tx, r, p));
  // The aggregates the views read (api/store/aggregates): the imported run's phases and their groups.
  await refreshAggregates(tx, phaseIds);
}

type TransferPhase = TransferRun["phases"][number];
type TransferClientResult = TransferPhase["clientResults"][number];

/** A phase of a run with its group ids (the keys its aggregates are grouped by) and its client results; its id. */
async function importPhase(tx: Tx, r: TransferRun, p: TransferPhase): Promise<number> {
  const grouped = { ...r, ...p, standIn: r.standIn ?? null, target: p.target ?? null } as unknown as GroupedPhase;
  const data = { ...storedRow(TransferPhaseSchema, p, ["clientResults"]), runId: r.id, ...phaseGroupIds(grouped) };
  const phase = await tx.phase.create({ data: data as Prisma.PhaseUncheckedCreateInput });
  for (const c of p.clientResults) await importClientResult(tx, r.id, phase.id, c);
  return phase.id;
}

/** A client's result with its operations, HDR log names, status series and verdict. */
async function importClientResult(tx: Tx, runId: string, phaseId: number, c: TransferClientResult): Promise<void> {
  const nested = ["operations", "hdrLogs", "statusSeries", "validity"];
  const data = {
    ...storedRow(TransferClientResultSchema, c, nested),
    phaseId,
    runId,
    operations: { create: c.operations.map((o) => storedRow(TransferOperationSchema, o)) },
    // A column of the row, stored by ingest's rule: the same line imported and ingested keeps the same references.
    hdrLogs: storedHdrLogs(c.hdrLogs) as unknown as Prisma.InputJsonValue,
    ...(c.statusSeries ? { statusSeries: { create: storedRow(TransferStatusSeriesSchema, c.statusSeries) } } : {}),
    ...(c.validity ? { validity: { create: storedRow(TransferValiditySchema, c.validity) } } : {}),
  };
  await tx.clientResult.create({ data: data as Prisma.ClientResultUncheckedCreateInput });
}
