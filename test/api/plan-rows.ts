import pg from "pg";

/** The part of a Postgres EXPLAIN (ANALYZE, FORMAT JSON) plan node that counts rows read. */
export interface PlanNode {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** Rows read from each table by a plan: what its scans returned and what their filters threw away, per loop. */
export function rowsRead(node: PlanNode, into: Map<string, number>): void {
  const table = node["Relation Name"];
  if (table) {
    const rows =
      (node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
    into.set(table, (into.get(table) ?? 0) + Math.round(rows * (node["Actual Loops"] ?? 1)));
  }
  for (const child of node.Plans ?? []) rowsRead(child, into);
}

/** The rows the recorded reads read per table, each re-run under EXPLAIN ANALYZE in a transaction rolled back. */
export async function readsOf(url: string, statements: readonly { text: string; values: unknown[] }[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const into = new Map<string, number>();
  try {
    for (const s of statements) {
      await client.query("BEGIN");
      const res = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.text}`, s.values);
      await client.query("ROLLBACK");
      rowsRead((res.rows[0] as { "QUERY PLAN": { Plan: PlanNode }[] })["QUERY PLAN"][0]!.Plan, into);
    }
  } finally {
    await client.end();
  }
  return Object.fromEntries([...into].sort(([a], [b]) => a.localeCompare(b)));
}
