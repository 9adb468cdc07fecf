import pg from "pg";
import { expect } from "vitest";
import { laneOf } from "../../api/db/fair-queue.js";

/** The part of a Postgres EXPLAIN (ANALYZE, FORMAT JSON) plan node that counts rows read. */
export interface PlanNode {
  "Node Type"?: string;
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

/**
 * A pool that records the reads its clients send inside a transaction (a write's, a recount's), or anywhere with
 * `anywhere` (a view's), while `recording` holds, and the JIT setting each ran under (asked on the same connection, in
 * the same transaction, once it answered).
 */
export function recordingPool(url: string, { anywhere = false } = {}) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const state = { recording: false, sent: [] as { text: string; values: unknown[] }[], jit: [] as string[] };
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    let inTransaction = false;
    (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const q = args[0] as string | { text: string; values?: unknown[] };
      const text = typeof q === "string" ? q : q.text;
      if (/^\s*BEGIN\b/i.test(text)) inTransaction = true;
      const recorded = state.recording && (anywhere || inTransaction) && laneOf(text) === "read";
      if (recorded) {
        const values = typeof q === "string" ? (Array.isArray(args[1]) ? args[1] : []) : (q.values ?? []);
        state.sent.push({ text, values });
      }
      if (/^\s*(COMMIT|ROLLBACK)\b/i.test(text)) inTransaction = false;
      const answer = query(...args);
      if (!recorded || !(answer instanceof Promise)) return answer;
      return answer.then(async (result) => {
        const setting = (await query("SELECT current_setting('jit') AS jit")) as { rows: { jit: string }[] };
        state.jit.push(setting.rows[0]!.jit);
        return result;
      });
    };
  });
  return { pool, state };
}

/**
 * Runs `body` with the pool's reads recorded (from a clean list), then checks every read ran without JIT, as a write's
 * and a round's transactions set it (api/store/write-settings.ts): compiling a misestimated read cost more than it.
 */
export async function recordReads<T>(state: ReturnType<typeof recordingPool>["state"], body: () => Promise<T>) {
  state.sent.length = 0;
  state.jit.length = 0;
  state.recording = true;
  try {
    return await body();
  } finally {
    state.recording = false;
    expect(state.jit).toEqual(state.sent.map(() => "off"));
  }
}
