import { describe, expect, it } from "vitest";
import { isLostConnection, isReadOnlyStatement } from "../../api/db/lost-connection.js";

// Which failures are sent again (api/db/lost-connection.ts): a read on a connection the server had ended, never a
// write, never a statement that failed for another reason.
describe("a read on a lost connection is sent again, nothing else", () => {
  it("knows a lost connection by its SQLSTATE, socket code or pg's message, and nothing else", () => {
    for (const err of [
      { code: "57P01", message: "terminating connection due to administrator command" },
      { code: "57P02", message: "terminating connection because of crash of another server process" },
      { code: "08006", message: "connection failure" },
      { code: "ECONNRESET", message: "read ECONNRESET" },
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
    ])
      expect(isLostConnection(err), JSON.stringify(err)).toBe(true);
    for (const err of [
      { code: "57014", message: "canceling statement due to statement timeout" },
      { code: "28P01", message: 'password authentication failed for user "ycsb"' },
      { code: "57P03", message: "the database system is starting up" },
      { code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:5432" },
      { code: "23505", message: "duplicate key value violates unique constraint" },
      new Error("timeout exceeded when trying to connect"),
      undefined,
      "Connection terminated",
    ])
      expect(isLostConnection(err), JSON.stringify(err)).toBe(false);
  });

  it("sends again only statements that write nothing", () => {
    for (const read of [
      "SELECT 1",
      '  select "public"."Run"."id", "public"."Run"."updatedAt" FROM "public"."Run" WHERE 1=1',
      "/* views */ WITH kept AS (SELECT * FROM run) SELECT count(*) FROM kept",
      "-- the page\nSELECT id FROM run ORDER BY started_at DESC LIMIT 50",
      "SHOW server_version",
      "VALUES (1), (2)",
    ])
      expect(isReadOnlyStatement(read), read).toBe(true);
    for (const write of [
      "INSERT INTO run (id) VALUES ($1)",
      "UPDATE run SET note = $1",
      "DELETE FROM run",
      "WITH gone AS (DELETE FROM run RETURNING id) SELECT count(*) FROM gone",
      "WITH moved AS (UPDATE run SET x = 1 RETURNING id) SELECT * FROM moved",
      "SELECT nextval('run_seq')",
      "SELECT * FROM run WHERE id = $1 FOR UPDATE",
      "SELECT * FROM run FOR NO KEY UPDATE",
      "SELECT * FROM run FOR SHARE",
      "BEGIN",
      "COMMIT",
      "CREATE TABLE t (id int)",
      "",
    ])
      expect(isReadOnlyStatement(write), write).toBe(false);
  });
});
