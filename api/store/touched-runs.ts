import type { Db } from "../db/client.js";
import { sqlReader } from "../db/pg-direct.js";
import type { TouchedRun } from "./touched.js";

type Reader = Pick<Db, "$queryRaw">;

/** These stored runs as a write touches them (read before a delete, while they are still there). */
export async function touchedRuns(db: Reader, ids: readonly string[]): Promise<TouchedRun[]> {
  if (ids.length === 0) return [];
  const rows = await sqlReader(db).$queryRaw<
    {
      id: string;
      scenario: string;
      engine: string;
      engineVersion: string;
      preset: string;
      nodes: number;
      data: string;
      client: string;
      kind: string;
      startedAt: Date;
      presets: string[] | null;
      workloads: (string | null)[] | null;
    }[]
  >`
    SELECT r.id, r.scenario, r.engine, r.engine_version AS "engineVersion", r.preset, r.nodes, r.data_instance_type AS data,
           r.client_instance_type AS client, s.kind, r.started_at AS "startedAt",
           (SELECT array_agg(DISTINCT p.preset) FROM phases p WHERE p.run_id = r.id) AS presets,
           (SELECT array_agg(DISTINCT p.workload) FROM phases p WHERE p.run_id = r.id) AS workloads
    FROM runs r JOIN sources s ON s.id = r.source_id WHERE r.id = ANY(${[...ids]}::text[])`;
  return rows.map((r) => ({
    id: r.id,
    scenario: r.scenario,
    engine: r.engine,
    engineVersion: r.engineVersion,
    presets: [...new Set([r.preset, ...(r.presets ?? [])])],
    nodes: Number(r.nodes),
    instanceTypes: [r.data, r.client],
    sourceKind: r.kind,
    startedAt: new Date(r.startedAt).toISOString(),
    workloads: (r.workloads ?? []).filter((w): w is string => w !== null),
  }));
}
