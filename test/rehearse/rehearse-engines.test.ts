import { afterAll, describe, expect, it } from "vitest";
import { type RehearsalResult, rehearse } from "../../rehearse/rehearse.js";
import { rehearsalLog } from "../support/rehearsal-log.js";

// The cloud path of HBase and of the MongoDB and Couchbase stand-ins, rehearsed in OS containers (DESIGN.md "One boot
// path, rehearsed"): each instance's exact user-data under cloud-init, the kit from the emulated bucket, the results
// service importing. The stand-ins run in the data node's container in place of the vendor's package, and say so.
const started: RehearsalResult[] = [];
afterAll(async () => {
  for (const r of started) await r.stop();
});

type Run = {
  run: { id: string; standIn?: string | null };
  phases: Array<{
    phase: { name: string; kind: string };
    verdict: string;
    aggregate: { clients: number; expectedClients: number; complete: boolean };
  }>;
};

async function check(result: RehearsalResult, expectations: (run: Run) => void): Promise<void> {
  started.push(result);
  expect(result.problems).toEqual([]);
  expect(result.ok).toBe(true);
  const res = await fetch(
    result.dashboardUrl.replace(/\/\?run=.*$/, `/api/v1/runs/${encodeURIComponent(result.runId)}`),
  );
  expect(res.status).toBe(200);
  const run = (await res.json()) as Run;
  expect(run.phases.filter((p) => p.phase.kind !== "prepare").map((p) => p.phase.name)).toEqual(["load", "a", "b"]);
  for (const p of run.phases) {
    expect(p.aggregate).toMatchObject({ clients: 1, expectedClients: 1, complete: true });
    expect(["valid", "warning", "invalid"]).toContain(p.verdict);
  }
  // The run over, the node stopped its engine and both machines powered themselves off.
  expect(result.statuses.find((s) => s.instance === "node-0")?.stage).toBe("done");
  expect(result.statuses.find((s) => s.instance === "client-0")?.stage).toBe("done");
  expect(result.machines).toEqual({ "node-0": "powered off", "client-0": "powered off" });
  expect(result.iam.findings).toEqual([]);
  expect(result.iam.probes.every((p) => p.ok)).toBe(true);
  expectations(run);
}

// The two tests run side by side (their machines on their own loopback /24s): HBase's node is busy starting its
// daemons while the stand-ins' are light, so together they take little more than HBase alone.
describe.concurrent("ycsb-lab rehearse on HBase and the stand-ins, in OS containers", () => {
  it("HBase: the Hadoop and HBase daemons from Maven Central jars laid out like the tarballs, the real engine, as its own user", async () => {
    const result = await rehearse({
      stack: "quickstart",
      engine: "hbase",
      scale: 0.05,
      loopbackPrefix: "127.0.116",
      log: rehearsalLog("hbase"),
      timeoutMs: 15 * 60_000,
    });
    await check(result, (run) => expect(run.run.standIn ?? null).toBeNull());
    expect(result.statuses.find((s) => s.instance === "node-0")?.rehearsal?.join(" ")).toMatch(
      /engine: local artifacts \S+ instead of the vendor download/,
    );
  }, 1_200_000);

  it("MongoDB on its stand-in (FerretDB) and Couchbase on its stand-in (CouchbaseMock), side by side, named in the results", async () => {
    const [mongodb, couchbase] = await Promise.all([
      rehearse({
        stack: "quickstart",
        engine: "mongodb",
        scale: 0.05,
        loopbackPrefix: "127.0.117",
        log: rehearsalLog("mongodb"),
        timeoutMs: 15 * 60_000,
      }),
      rehearse({
        stack: "quickstart",
        engine: "couchbase",
        preset: "throughput",
        scale: 0.05,
        loopbackPrefix: "127.0.118",
        log: rehearsalLog("couchbase"),
        timeoutMs: 15 * 60_000,
      }),
    ]);
    await check(mongodb, (run) => expect(run.run.standIn).toMatch(/FerretDB/));
    await check(couchbase, (run) => expect(run.run.standIn).toMatch(/CouchbaseMock/));
  }, 1_200_000);
});
