import { GetObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";
import { resultKey } from "../model/results-layout.js";
import type { InstanceStatus } from "../model/instance-status.js";
import { rehearse, type RehearsalResult } from "../rehearse/rehearse.js";
import { bindingClasspathDir, REPO_ROOT, ycsbCoreDir } from "../runner/java-artifacts.js";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { queryCql } from "../runner/local/cassandra-cql.js";

// The cloud path on this machine (DESIGN.md "One boot path, rehearsed"): every instance runs its rendered user-data,
// the kit comes from the emulated bucket with the role's IAM policy, results reach the API through the S3 import.
const started: RehearsalResult[] = [];
afterAll(async () => {
  for (const r of started) await r.stop();
});

/** Each rehearsal stops everything it started before the next one starts (same ports on other addresses). */
async function finish(r: RehearsalResult, checks: () => Promise<void>): Promise<void> {
  started.push(r);
  try {
    await checks();
  } finally {
    await r.stop();
    // A drill's run has problems by design, so the rehearsal keeps its folder for inspection: not in the suite.
    rmSync(join(REPO_ROOT, ".local", "rehearsals", r.runId), { recursive: true, force: true });
  }
}

type Run = { run: { id: string }; phases: Array<{ phase: { name: string; kind: string }; verdict: string; aggregate: { clients: number; expectedClients: number; complete: boolean } }> };

async function apiRun(r: RehearsalResult): Promise<Run> {
  const res = await fetch(r.dashboardUrl.replace(/\/\?run=.*$/, `/api/v1/runs/${encodeURIComponent(r.runId)}`));
  expect(res.status).toBe(200);
  return (await res.json()) as Run;
}

describe("ycsb-lab rehearse on Cassandra", () => {
  it("quickstart on 3 nodes and 2 clients: a client killed mid-phase resumes; a node whose engine dies makes its phase invalid, not a hang", async () => {
    let clientKilled: string | undefined;
    let nodeKilled = 0;
    const result = await rehearse({
      stack: "quickstart",
      nodes: 3,
      clients: 2,
      loopbackPrefix: "127.0.112",
      log: () => {},
      onStatus: (s: InstanceStatus, rehearsal) => {
        // Drill 1: client 1 dies (SIGKILL, like a lost machine) a few seconds into workload A; systemd would restart it.
        if (s.instance === "client-1" && s.stage === "running" && s.phase?.name === "a" && !clientKilled) {
          clientKilled = s.at;
          setTimeout(() => rehearsal.instance("client-1").kill("SIGKILL"), 4000);
        }
        // Drill 2: node 2's Cassandra dies two seconds into workload B.
        if (s.instance === "client-0" && s.stage === "running" && s.phase?.name === "b" && nodeKilled === 0) {
          const pids = rehearsal.instance("node-2").enginePids();
          nodeKilled = pids.length;
          setTimeout(() => pids.forEach((pid) => process.kill(pid, "SIGKILL")), 2000);
        }
      },
    });
    await finish(result, async () => {
      expect(clientKilled).toBeDefined();
      expect(nodeKilled).toBe(1);
      // The one problem is the node the drill killed; everything else was stored.
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]).toMatch(/^node-2 failed: cassandra .*exited by signal SIGKILL while serving the run/);
      // Every client's result of every measured phase is in the API, with a verdict.
      const run = await apiRun(result);
      const measured = run.phases.filter((p) => p.phase.kind !== "prepare");
      expect(measured.map((p) => p.phase.name)).toEqual(["load", "a", "b"]);
      for (const p of measured) {
        expect(p.aggregate).toMatchObject({ clients: 2, expectedClients: 2, complete: true });
        expect(["valid", "warning", "invalid"]).toContain(p.verdict);
      }
      expect(measured.find((p) => p.phase.name === "b")!.verdict).toBe("invalid");
      const byName = new Map(result.statuses.map((s) => [s.instance, s]));
      for (const n of ["node-0", "node-1"]) expect(byName.get(n)?.stage).toBe("ready");
      expect(byName.get("node-2")?.logTail).toBe(true);
      for (const c of ["client-0", "client-1"]) expect(byName.get(c)?.stage).toBe("done");
      // The stored document says why B is invalid: the node that died.
      const b = JSON.parse(await rehearsalBucketReader(result).read(resultKey(result.runId, 3, "b", 0))) as { validity: { verdict: string; reasons: Array<{ code: string; message: string }> } };
      expect(b.validity.reasons.find((r) => r.code === "cluster-node-failed")?.message).toMatch(/data node 2 failed/);
      // The swaps are declared in every instance's status.
      expect(byName.get("node-1")?.rehearsal?.join(" ")).toMatch(/Maven Central|local artifacts/);
      // IAM: every call allowed by its role's policy, conditions included; the probes denied what they must.
      expect(result.iam.findings).toEqual([]);
      expect(result.iam.calls).toBeGreaterThan(50);
      expect(result.iam.probes.length).toBeGreaterThanOrEqual(8);
      expect(result.iam.probes.every((p) => p.ok)).toBe(true);
    });
  }, 900_000);

  it("endpoint-2015 at a small scale on 2 nodes: durable workloads after a non-durable load, repeats after a wipe and restart", async () => {
    // The keyspace's durable_writes as the server reports it, during the load and during the first workload.
    const durableWrites: Record<string, unknown> = {};
    const asked = new Set<string>();
    const result = await rehearse({
      stack: "endpoint-2015",
      nodes: 2,
      scale: 0.00002,
      repeats: 2,
      loopbackPrefix: "127.0.114",
      log: () => {},
      onStatus: async (s) => {
        // The first load and the first workload client 0 is seen running (statuses are polled: any one will do).
        const phase = s.instance === "client-0" && s.stage === "running" ? (s.detail === "load" ? "load" : s.detail === "workload" ? "workload" : undefined) : undefined;
        if (phase && !asked.has(phase)) {
          asked.add(phase);
          const tools = { bindingDir: await bindingClasspathDir("cassandra"), ycsbCoreDir: ycsbCoreDir() };
          const rows = await queryCql({ ...tools, hosts: ["127.0.114.1"], statements: ["SELECT durable_writes FROM system_schema.keyspaces WHERE keyspace_name = 'ycsb'"] });
          durableWrites[phase] = rows[0]?.durable_writes;
        }
      },
    });
    await finish(result, async () => {
      expect(result.problems).toEqual([]);
      const run = await apiRun(result);
      const names = run.phases.map((p) => p.phase.name);
      // Seed 000's five workloads, twice, each repeat loaded again after the reset the study made (new instances).
      expect(names).toEqual(["load", "b-r0", "a-r0", "f-r0", "mixed-analytical-r0", "insert-mostly-r0", "load-r1", "b-r1", "a-r1", "f-r1", "mixed-analytical-r1", "insert-mostly-r1"]);
      for (const p of run.phases) expect(p.aggregate).toMatchObject({ clients: 2, expectedClients: 2, complete: true });
      const s3 = rehearsalBucketReader(result);
      const plan = JSON.parse(await s3.read(`runs/${result.runId}/plan.json`)) as { phases: Array<{ index: number; name: string; kind: string; preset?: string }> };
      const reset = plan.phases.find((p) => p.kind === "reset")!;
      // Both data nodes carried out the reset and said what they did; the leader formed the cluster again.
      for (const node of [0, 1]) {
        const ack = JSON.parse(await s3.read(`runs/${result.runId}/cluster/acks/${reset.index}/node-${node}.json`)) as { ok: boolean; done: string[] };
        expect(ack.ok).toBe(true);
        expect(ack.done.join("; ")).toMatch(/engine stopped; data wiped .*; engine started again/);
      }
      // The load ran with the throughput preset's client side, the workloads with the durable one (seed 000).
      const load = JSON.parse(await s3.read(resultKey(result.runId, 1, "load", 0))) as { phase: { properties: Record<string, string> } };
      const b = JSON.parse(await s3.read(resultKey(result.runId, plan.phases.find((p) => p.name === "b-r0")!.index, "b-r0", 1))) as { run: { preset: string; provenance?: { kit?: { sha256: string } } }; phase: { properties: Record<string, string> } };
      expect(load.phase.properties["ycsblab.preset"]).toBe("throughput");
      expect(b.phase.properties["ycsblab.preset"]).toBe("durable");
      expect(b.run.preset).toBe("durable");
      expect(b.run.provenance?.kit?.sha256).toMatch(/^[0-9a-f]{64}$/);
      // Seed 000's non-durable load, checked in the server: durable_writes off while loading, on for the workloads.
      expect(durableWrites).toEqual({ load: false, workload: true });
      expect(load.phase.properties["ycsblab.serverPreset"]).toBe("throughput");
    });
  }, 1_200_000);
});

/** Reads an object of the rehearsal's bucket as the admin (the emulator keeps running until stop()). */
function rehearsalBucketReader(r: RehearsalResult) {
  return {
    async read(key: string): Promise<string> {
      const { emulator, bucket } = r.internals!;
      const s3 = emulator.s3();
      const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const text = await out.Body!.transformToString();
      s3.destroy();
      return text;
    },
  };
}
