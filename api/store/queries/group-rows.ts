/** Reading the groups ingest keeps (configuration_aggregates, peak_aggregates) under a view's filters. */
import { Prisma } from "../../../prisma/generated/client.js";
import type { RunFilters } from "./filters.js";

/**
 * The filters as conditions on a kept group's own columns, or null when one of them cuts through groups: a date
 * range (a configuration's repeats may differ in it), and for peak groups the engine version (a scaling series spans
 * versions). The view then computes from the phases (the same summaries, slower). The machines are part of every
 * group's identity (model/aggregate/repeats.ts deploymentIdentity), so an instance type selects whole groups.
 */
export function groupWhere(f: RunFilters, of: "configuration" | "peak"): Prisma.Sql | null {
  if (f.from || f.to || (of === "peak" && f.version)) return null;
  const c: Prisma.Sql[] = [];
  if (f.instanceType)
    c.push(Prisma.sql`(g.data_instance_type = ${f.instanceType} OR g.client_instance_type = ${f.instanceType})`);
  if (f.engine) c.push(Prisma.sql`g.engine = ${f.engine}`);
  if (f.version) c.push(Prisma.sql`g.engine_version = ${f.version}`);
  if (f.preset) c.push(Prisma.sql`g.preset = ${f.preset}`);
  if (f.nodes) c.push(Prisma.sql`g.nodes = ${f.nodes}`);
  if (f.scenario) c.push(Prisma.sql`g.scenario = ${f.scenario}`);
  if (f.source) c.push(Prisma.sql`g.source_kind = ${f.source}`);
  if (f.workload) c.push(Prisma.sql`g.workload = ${f.workload}`);
  return c.length ? Prisma.sql`AND ${Prisma.join(c, " AND ")}` : Prisma.empty;
}

/** The summary column of the `include` asked for (both are kept). */
export const summaryColumn = (f: RunFilters) => Prisma.raw(f.include === "all" ? "g.summary_all" : "g.summary_valid");

/** Sorts by a list of keys, strings by code unit (as Postgres' C collation), numbers and nulls first. */
export function byKeys<T>(key: (x: T) => readonly (string | number | null)[]) {
  return (a: T, b: T): number => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) {
      const [x, y] = [ka[i] ?? null, kb[i] ?? null];
      if (x === y) continue;
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return 0;
  };
}
