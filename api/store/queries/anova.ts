/** GET /anova: seed 003's two-way analysis of variance over engines and operation counts. */
import { addLeftOut, type LeftOut, selectPhases } from "../../../model/aggregate/index.js";
import { type AnovaTable, type CellSummary, cellOf, twoWayAnova } from "../../../model/anova.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { type PhaseSummaryRow, phaseSummaries, type RunFilters } from "./filters.js";
import { groupBy, NO_LEFT_OUT, phaseProperties } from "./phase-groups.js";

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
  const properties = await phaseProperties(
    db,
    rows.filter((r) => r.sourceKind === "published"),
  );
  const tables = await db.referenceTable.findMany({
    where: {
      seed: {
        in: [
          ...new Set(
            rows.filter((r) => r.sourceKind === "published").map((r) => r.sourceId.replace(/^published:/, "")),
          ),
        ],
      },
    },
  });
  const meanOf = (r: PhaseSummaryRow): number => {
    const id = properties.get(r.phaseId)?.referenceTable;
    const derive = tables.find((t) => t.id === id)?.derive as { repeats?: number } | null | undefined;
    return derive?.repeats ?? 1;
  };
  let leftOut = NO_LEFT_OUT;
  const analyses = groupBy(rows, (r) => [
    r.scenario,
    r.sourceKind,
    r.sourceId,
    r.citation,
    r.workload,
    r.operationCount,
    r.preset,
    r.nodes,
  ]).flatMap(({ key, rows: rs }) => {
    const [scenario, sourceKind, sourceId, citation, workload, operationCount, preset, nodes] = key as [
      string,
      string,
      string,
      string | null,
      string | null,
      number | null,
      string,
      number,
    ];
    const { counted, leftOut: seriesLeftOut } = selectPhases(rs, f.include);
    leftOut = addLeftOut(leftOut, seriesLeftOut);
    const cells: CellSummary[] = groupBy(counted, (r) => [r.engine, r.threadsPerClient * r.clients]).map(
      ({ key: [engine, threads], rows: ps }) =>
        sourceKind === "published"
          ? {
              database: engine as string,
              threads: threads as number,
              n: meanOf(ps[0]!),
              mean: ps[0]!.runtimeMs,
              withinSumSq: null,
            }
          : cellOf(
              engine as string,
              threads as number,
              ps.map((p) => p.runtimeMs),
            ),
    );
    if (new Set(cells.map((c) => c.database)).size < 2 || new Set(cells.map((c) => c.threads)).size < 2) return [];
    const seed = sourceId.replace(/^published:/, "");
    const table9 =
      sourceKind === "published"
        ? tables.find((t) => t.seed === seed && (t.derive as { metric?: string } | null)?.metric === "anova")
        : undefined;
    const row = table9
      ? (table9.rows as (string | number | null)[][]).find(
          (r) => String(r[0]).toLowerCase() === workload && Number(r[1]) === operationCount,
        )
      : undefined;
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
        cells: cells
          .map((c) => ({ database: c.database, threads: c.threads, n: c.n, meanRuntimeMs: c.mean }))
          .sort((a, b) => a.database.localeCompare(b.database) || a.threads - b.threads),
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
