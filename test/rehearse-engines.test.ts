import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rehearse, type RehearsalResult } from "../rehearse/rehearse.js";
import { REPO_ROOT } from "../runner/java-artifacts.js";

// The cloud path of HBase and of the MongoDB and Couchbase stand-ins, rehearsed (DESIGN.md "One boot path,
// rehearsed"): each instance's rendered user-data, the kit from the emulated bucket, the results service importing.
const started: RehearsalResult[] = [];
afterAll(async () => {
  for (const r of started) await r.stop();
});

type Run = { run: { id: string; standIn?: string | null }; phases: Array<{ phase: { name: string; kind: string }; verdict: string; aggregate: { clients: number; expectedClients: number; complete: boolean } }> };

async function check(result: RehearsalResult, expectations: (run: Run) => void): Promise<void> {
  started.push(result);
  try {
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    const res = await fetch(result.dashboardUrl.replace(/\/\?run=.*$/, `/api/v1/runs/${encodeURIComponent(result.runId)}`));
    expect(res.status).toBe(200);
    const run = (await res.json()) as Run;
    expect(run.phases.filter((p) => p.phase.kind !== "prepare").map((p) => p.phase.name)).toEqual(["load", "a", "b"]);
    for (const p of run.phases) {
      expect(p.aggregate).toMatchObject({ clients: 1, expectedClients: 1, complete: true });
      expect(["valid", "warning", "invalid"]).toContain(p.verdict);
    }
    expect(result.statuses.find((s) => s.instance === "node-0")?.stage).toBe("ready");
    expect(result.statuses.find((s) => s.instance === "client-0")?.stage).toBe("done");
    expect(result.iam.findings).toEqual([]);
    expect(result.iam.probes.every((p) => p.ok)).toBe(true);
    expectations(run);
  } finally {
    await result.stop();
    rmSync(join(REPO_ROOT, ".local", "rehearsals", result.runId), { recursive: true, force: true });
  }
}

describe("ycsb-lab rehearse on HBase and the stand-ins", () => {
  it("HBase: the Hadoop and HBase daemons from Maven Central jars laid out like the tarballs, the real engine", async () => {
    const result = await rehearse({ stack: "quickstart", engine: "hbase", scale: 0.05, loopbackPrefix: "127.0.116", log: () => {} });
    await check(result, (run) => expect(run.run.standIn ?? null).toBeNull());
    expect(result.statuses.find((s) => s.instance === "node-0")?.rehearsal?.join(" ")).toMatch(/hadoop|HBase/i);
  }, 900_000);

  it("MongoDB on its stand-in (FerretDB), named in the results", async () => {
    const result = await rehearse({ stack: "quickstart", engine: "mongodb", scale: 0.05, loopbackPrefix: "127.0.117", log: () => {} });
    await check(result, (run) => expect(run.run.standIn).toMatch(/FerretDB/));
  }, 900_000);

  it("Couchbase on its stand-in (CouchbaseMock, throughput preset), named in the results", async () => {
    const result = await rehearse({ stack: "quickstart", engine: "couchbase", preset: "throughput", scale: 0.05, loopbackPrefix: "127.0.118", log: () => {} });
    await check(result, (run) => expect(run.run.standIn).toMatch(/CouchbaseMock/));
  }, 900_000);
});
