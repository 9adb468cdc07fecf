import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { clientHistograms } from "../../model/hdr/index.js";
import { buildPlan, scenario, validateResultDocument } from "../../model/index.js";
import { acceptedHistograms, clientResult, emptyOutput, type RunFacts } from "../../runner/client-result.js";
import { parseYcsbOutput } from "../../runner/ycsb-output/index.js";

const fixture = (f: string) => readFileSync(new URL(`../fixtures/ycsb/hdr-v2/client-0/${f}`, import.meta.url), "utf8");

function documentFor(run: RunFacts) {
  const plan = buildPlan(scenario("quickstart"));
  const phase = plan.phases.find((p) => p.kind === "workload")!;
  return clientResult({
    plan,
    phase,
    run,
    clientIndex: 0,
    properties: { recordcount: "10000" },
    startedAt: "2026-11-22T05:00:00.000Z",
    finishedAt: "2026-11-22T05:00:10.000Z",
    output: parseYcsbOutput(fixture("stdout.txt"), fixture("stderr.txt")),
    hdrLogs: [],
    resources: [],
    validity: { verdict: "valid", reasons: [] },
  });
}

describe("the result document of a client phase", () => {
  const base = { runId: "r1", startedAt: "2026-11-22T05:00:00.000Z", ycsbLabVersion: "0.1.0" };

  test("a cloud run is labelled with the scenario's instance types", () => {
    const doc = documentFor(base);
    expect(validateResultDocument(doc).ok).toBe(true);
    expect(doc.run.instanceTypes).toEqual({ data: "m6i.large", client: "c6i.large" });
  });

  test("a run on this machine is labelled local, never with cloud instance types it did not use", () => {
    const doc = documentFor({ ...base, machine: "local" });
    expect(validateResultDocument(doc).ok).toBe(true);
    expect(doc.run.instanceTypes).toEqual({ data: "local", client: "local" });
  });

  test("a YCSB stopped before its summary: its histograms are left out and named, so the phase is still stored", () => {
    // A data node died mid-phase and the run ended: YCSB wrote HDR logs, then was stopped before printing a group.
    const all = clientHistograms(
      ["READ", "UPDATE"].map((operation) => ({ operation, text: fixture(`${operation}.hdr`) })),
    );
    const stopped = emptyOutput("YCSB stopped: the run ended");
    const { histograms, warnings } = acceptedHistograms(all, stopped.operations);
    expect(histograms).toEqual({});
    expect(warnings).toEqual([
      expect.stringMatching(/^hdr histogram READ left out .*no operation group READ/),
      expect.stringMatching(/^hdr histogram UPDATE left out/),
    ]);
    const plan = buildPlan(scenario("quickstart"));
    const doc = clientResult({
      plan,
      phase: plan.phases.find((p) => p.kind === "workload")!,
      run: { runId: "r1", startedAt: "2026-11-22T05:00:00.000Z", ycsbLabVersion: "0.1.0" },
      clientIndex: 0,
      properties: {},
      startedAt: "2026-11-22T05:00:00.000Z",
      finishedAt: "2026-11-22T05:00:10.000Z",
      output: { ...stopped, warnings: [...stopped.warnings, ...warnings] },
      hdrLogs: [],
      hdrHistograms: histograms,
      resources: [],
      validity: { verdict: "invalid", reasons: [{ code: "ycsb-exit", message: "stopped" }] },
    });
    expect(validateResultDocument(doc).ok).toBe(true);
    // Sent with them, the contract refuses the whole document (model/result-checks.ts histogramProblems).
    expect(validateResultDocument({ ...doc, hdrHistograms: all }).ok).toBe(false);
  });

  test("the histograms of groups YCSB printed, agreeing with it, are all kept", () => {
    const all = clientHistograms(
      ["READ", "UPDATE"].map((operation) => ({ operation, text: fixture(`${operation}.hdr`) })),
    );
    const output = parseYcsbOutput(fixture("stdout.txt"), fixture("stderr.txt"));
    expect(acceptedHistograms(all, output.operations)).toEqual({ histograms: all, warnings: [] });
  });
});
