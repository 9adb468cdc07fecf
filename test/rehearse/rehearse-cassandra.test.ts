import { GetObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";
import type { InstanceStatus, RunEnd } from "../../model/instance-status.js";
import { manifestKey, resultKey, runEndKey } from "../../model/results-layout.js";
import { type Rehearsal, type RehearsalResult, rehearse } from "../../rehearse/rehearse.js";
import { bindingClasspathDir, ycsbCoreDir } from "../../runner/java-artifacts.js";
import { queryCql } from "../../runner/local/cassandra-cql.js";
import { rehearsalLog } from "../support/rehearsal-log.js";

// The cloud path on this machine (DESIGN.md "One boot path, rehearsed"): every instance an OS container of the AMI's
// distribution, cloud-init running its exact user-data, systemd its service; the kit from the emulated bucket with the
// role's IAM policy; results reach the API through the S3 import.
const started: RehearsalResult[] = [];
afterAll(async () => {
  for (const r of started) await r.stop();
});

type Run = {
  run: { id: string };
  phases: Array<{
    phase: { name: string; kind: string };
    verdict: string;
    aggregate: { clients: number; expectedClients: number; complete: boolean };
  }>;
};

async function apiRun(r: RehearsalResult): Promise<Run> {
  const res = await fetch(r.dashboardUrl.replace(/\/\?run=.*$/, `/api/v1/runs/${encodeURIComponent(r.runId)}`));
  expect(res.status).toBe(200);
  return (await res.json()) as Run;
}

/** Reads an object of the rehearsal's bucket as the admin (the emulator keeps running until stop()). */
async function read(r: RehearsalResult, key: string): Promise<string> {
  const { emulator, bucket } = r.internals!;
  const s3 = emulator.s3();
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return await out.Body!.transformToString();
  } finally {
    s3.destroy();
  }
}

const ycsbJvms = (rehearsal: Rehearsal, instance: string) =>
  rehearsal
    .instance(instance)
    .processes()
    .filter((p) => p.command.includes("site.ycsb.Client"));

describe("ycsb-lab rehearse on Cassandra, in OS containers", () => {
  it("quickstart on 3 nodes and 2 clients: a killed client resumes with no second YCSB alive; a data node's machine killed mid-phase ends the run naming it", async () => {
    const drill = {
      clientKilledAt: 0,
      jvmsBeforeKill: 0,
      jvmsAfterRestart: [] as number[],
      seenTogether: [] as string[],
      nodeKilledAt: 0,
    };
    let sampler: NodeJS.Timeout | undefined;
    let watchingA: NodeJS.Timeout | undefined;
    let watchingB: NodeJS.Timeout | undefined;
    const result = await rehearse({
      stack: "quickstart",
      nodes: 3,
      clients: 2,
      loopbackPrefix: "127.0.112",
      log: rehearsalLog("cassandra-quickstart"),
      // Below the test's own limit, so a stuck run ends with its problems and the log's tail, not a bare timeout.
      timeoutMs: 15 * 60_000,
      onStatus: (s: InstanceStatus, rehearsal) => {
        // Drill 1: client 1's boot process dies (SIGKILL) a few seconds into workload A, its YCSB JVM still running:
        // systemd restarts the service, and its control group (KillMode=control-group) takes the old JVM with it.
        // A client says "running a" as it reaches the barrier before the phase, and a peer still uploading its load
        // phase can hold that barrier for seconds: the drill waits for the phase's JVM itself (its own load JVM has
        // ended by then), then kills the boot process 3 s into it.
        if (s.instance === "client-1" && s.stage === "running" && s.phase?.name === "a" && !watchingA) {
          watchingA = setInterval(() => {
            if (drill.clientKilledAt || ycsbJvms(rehearsal, "client-1").length !== 1) return;
            drill.clientKilledAt = Date.now();
            clearInterval(watchingA);
            setTimeout(() => {
              const boot = rehearsal
                .instance("client-1")
                .processes()
                .find((p) => / boot --role client /.test(p.command));
              drill.jvmsBeforeKill = ycsbJvms(rehearsal, "client-1").length;
              process.kill(boot!.pid, "SIGKILL");
              // From then on, never two YCSB processes on the machine.
              sampler = setInterval(() => {
                const jvms = ycsbJvms(rehearsal, "client-1");
                drill.jvmsAfterRestart.push(jvms.length);
                if (jvms.length > 1)
                  drill.seenTogether.push(jvms.map((j) => `${j.pid} ${j.command.slice(0, 120)}`).join(" | "));
              }, 500);
            }, 3000);
          }, 250);
        }
        // Drill 2: node 2's whole machine dies (no word from it) a few seconds into workload B, once both clients
        // run its YCSB (a client's status says "running b" already at the barrier before it).
        if (s.instance === "client-0" && s.stage === "running" && s.phase?.name === "b" && !watchingB) {
          watchingB = setInterval(() => {
            if (drill.nodeKilledAt || !["client-0", "client-1"].every((c) => ycsbJvms(rehearsal, c).length === 1))
              return;
            drill.nodeKilledAt = Date.now();
            setTimeout(() => rehearsal.instance("node-2").kill(), 1000);
          }, 500);
        }
      },
    });
    started.push(result);
    if (sampler) clearInterval(sampler);
    if (watchingA) clearInterval(watchingA);
    if (watchingB) clearInterval(watchingB);
    expect(drill.clientKilledAt).toBeGreaterThan(0);
    expect(drill.jvmsBeforeKill).toBe(1);
    expect(drill.jvmsAfterRestart.length).toBeGreaterThan(10);
    expect(drill.seenTogether).toEqual([]);
    expect(Math.max(...drill.jvmsAfterRestart)).toBe(1);
    // The run ended early, naming the node, within two minutes of its death; every client stored what it measured.
    const end = JSON.parse(await read(result, runEndKey(result.runId))) as RunEnd;
    expect(end.complete).toBe(false);
    expect(end.reason).toMatch(/data node 2 has been silent for \d+ s .*its machine is gone/);
    expect(Date.parse(end.at) - drill.nodeKilledAt).toBeLessThan(120_000);
    const manifest = JSON.parse(await read(result, manifestKey(result.runId))) as { complete: boolean; reason: string };
    expect(manifest).toMatchObject({ complete: false, reason: expect.stringMatching(/data node 2/) });
    const run = await apiRun(result);
    const measured = run.phases.filter((p) => p.phase.kind !== "prepare");
    expect(measured.map((p) => p.phase.name)).toEqual(["load", "a", "b"]);
    for (const p of measured) expect(p.aggregate).toMatchObject({ clients: 2, expectedClients: 2 });
    expect(measured.find((p) => p.phase.name === "b")!.verdict).toBe("invalid");
    // The fleet ended itself: the clients (failed for good) and the surviving nodes (the run is over) powered off.
    expect(result.machines).toEqual({
      "node-0": "powered off",
      "node-1": "powered off",
      "node-2": "powered off",
      "client-0": "powered off",
      "client-1": "powered off",
    });
    const byName = new Map(result.statuses.map((s) => [s.instance, s]));
    for (const n of ["node-0", "node-1"]) expect(byName.get(n)?.stage).toBe("done");
    // The swaps are declared in every instance's status, and in the rehearsal's output.
    expect(byName.get("node-1")?.rehearsal?.join(" ")).toMatch(
      /OS container[\s\S]*loop devices as sdf -> \/dev\/nvme1n1/,
    );
    expect(result.swaps.join("\n")).toMatch(/debian-12[\s\S]*credentials[\s\S]*nodejs\.org[\s\S]*Maven Central/);
    // IAM: every call allowed by its role's policy, conditions included; the probes denied what they must.
    expect(result.iam.findings).toEqual([]);
    expect(result.iam.calls).toBeGreaterThan(50);
    expect(result.iam.probes.every((p) => p.ok)).toBe(true);
    // The one kind of problem is the run the drill ended: clients failed "run incomplete" naming node 2.
    expect(result.problems.filter((p) => !/data node 2/.test(p))).toEqual([]);
  }, 1_200_000);

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
      log: rehearsalLog("cassandra-endpoint-2015"),
      timeoutMs: 20 * 60_000,
      onStatus: async (s) => {
        // The first load and the first workload client 0 is seen running (statuses are polled: any one will do).
        const phase =
          s.instance === "client-0" && s.stage === "running"
            ? s.detail === "load"
              ? "load"
              : s.detail === "workload"
                ? "workload"
                : undefined
            : undefined;
        if (phase && !asked.has(phase)) {
          asked.add(phase);
          const tools = { bindingDir: await bindingClasspathDir("cassandra"), ycsbCoreDir: ycsbCoreDir() };
          const rows = await queryCql({
            ...tools,
            hosts: ["127.0.114.1"],
            statements: ["SELECT durable_writes FROM system_schema.keyspaces WHERE keyspace_name = 'ycsb'"],
          });
          durableWrites[phase] = rows[0]?.durable_writes;
        }
      },
    });
    started.push(result);
    expect(result.problems).toEqual([]);
    expect(Object.values(result.machines).every((m) => m === "powered off")).toBe(true);
    const run = await apiRun(result);
    const names = run.phases.map((p) => p.phase.name);
    // Seed 000's five workloads, twice, each repeat loaded again after the reset the study made (new instances).
    expect(names).toEqual([
      "load",
      "b-r0",
      "a-r0",
      "f-r0",
      "mixed-analytical-r0",
      "insert-mostly-r0",
      "load-r1",
      "b-r1",
      "a-r1",
      "f-r1",
      "mixed-analytical-r1",
      "insert-mostly-r1",
    ]);
    for (const p of run.phases) expect(p.aggregate).toMatchObject({ clients: 2, expectedClients: 2, complete: true });
    const plan = JSON.parse(await read(result, `runs/${result.runId}/plan.json`)) as {
      phases: Array<{ index: number; name: string; kind: string }>;
    };
    const reset = plan.phases.find((p) => p.kind === "reset")!;
    // Both data nodes carried out the reset and said what they did; the leader formed the cluster again.
    for (const node of [0, 1]) {
      const ack = JSON.parse(
        await read(result, `runs/${result.runId}/cluster/acks/${reset.index}/node-${node}.json`),
      ) as { ok: boolean; done: string[] };
      expect(ack.ok).toBe(true);
      // Seed 001 used new instances per test: no cache drop was asked (model/scenarios.ts), so none is reported.
      expect(ack.done.join("; ")).toMatch(
        /^engine stopped; data wiped \(\d+ folder\(s\)\); engine started again \(cassandra pid \d+\)/,
      );
      expect(ack.done.join("; ")).not.toMatch(/page cache/);
    }
    // The load ran with the throughput preset's client side, the workloads with the durable one (seed 000).
    const load = JSON.parse(await read(result, resultKey(result.runId, 1, "load", 0))) as {
      phase: { properties: Record<string, string> };
    };
    const b = JSON.parse(
      await read(result, resultKey(result.runId, plan.phases.find((p) => p.name === "b-r0")!.index, "b-r0", 1)),
    ) as {
      run: { preset: string; provenance?: { kit?: { sha256: string } } };
      phase: { properties: Record<string, string> };
    };
    expect(load.phase.properties["ycsblab.preset"]).toBe("throughput");
    expect(b.phase.properties["ycsblab.preset"]).toBe("durable");
    expect(b.run.preset).toBe("durable");
    expect(b.run.provenance?.kit?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Seed 000's non-durable load, checked in the server: durable_writes off while loading, on for the workloads.
    expect(durableWrites).toEqual({ load: false, workload: true });
    expect(load.phase.properties["ycsblab.serverPreset"]).toBe("throughput");
  }, 1_500_000);
});
