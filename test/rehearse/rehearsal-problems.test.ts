import { describe, expect, it } from "vitest";
import type { InstanceStatus } from "../../model/instance-status.js";
import { type EndedMachine, findProblems, type RunEvidence } from "../../rehearse/problems.js";

const status = (instance: string, stage: InstanceStatus["stage"], detail?: string): InstanceStatus => ({
  instance,
  role: instance.startsWith("node") ? "data" : "client",
  index: Number(instance.split("-")[1]),
  stage,
  at: "2026-11-30T11:20:00.000Z",
  ...(detail ? { detail } : {}),
});

const machine = (name: string, running: boolean, log: string[]): EndedMachine => ({
  name,
  running,
  bootLogTail: (n) => log.slice(-n).join("\n"),
});

const evidence = (over: Partial<RunEvidence>): RunEvidence => ({
  phases: [],
  statuses: new Map(),
  machines: [],
  iam: { findings: [], calls: 0, byRole: {}, probes: [] },
  unserved: [],
  timedOut: false,
  ...over,
});

// A rehearsal that ran past its deadline on CI left only "client-0 did not finish (waiting)": nothing said where the
// data nodes stood. Its problems now carry each unfinished instance's stage and its boot log's last lines.
describe("a rehearsal's problems", () => {
  const stuck = {
    statuses: new Map([
      ["node-0", status("node-0", "started", "waiting for the ring")],
      ["node-1", status("node-1", "ready", "serving")],
      ["client-0", status("client-0", "waiting", "for the cassandra cluster of 2 node(s)")],
      ["client-1", status("client-1", "done")],
    ]),
    machines: [
      machine(
        "node-0",
        true,
        Array.from({ length: 12 }, (_, i) => `line ${i}: 127.0.114.2: does not answer CQL`),
      ),
      machine("node-1", true, ["started cassandra"]),
      machine("client-0", true, []),
      machine("client-1", false, ["done"]),
    ],
  };

  it("name, for a run past its deadline, where each unfinished instance stood and how its log ends", () => {
    const problems = findProblems(evidence({ ...stuck, timedOut: true }));
    expect(problems).toContain(
      'node-0 was at "started: waiting for the ring" when the rehearsal timed out; its log ends:\n' +
        Array.from({ length: 8 }, (_, i) => `line ${i + 4}: 127.0.114.2: does not answer CQL`).join("\n"),
    );
    expect(problems).toContain(
      'node-1 was at "ready: serving" when the rehearsal timed out; its log ends:\nstarted cassandra',
    );
    expect(problems).toContain(
      'client-0 was at "waiting: for the cassandra cluster of 2 node(s)" when the rehearsal timed out; its log ends:\n(no log)',
    );
    // A finished instance says nothing of it.
    expect(problems.some((p) => p.startsWith("client-1 was at"))).toBe(false);
    expect(problems).toContain("client-0 did not finish (waiting)");
  });

  it("leave the stages out of a run that ended before its deadline", () => {
    const problems = findProblems(evidence({ ...stuck, timedOut: false }));
    expect(problems.filter((p) => / was at /.test(p))).toEqual([]);
    expect(problems).toEqual([
      "node-0 is still running after the run: it did not power itself off",
      "node-1 is still running after the run: it did not power itself off",
      "client-0 did not finish (waiting)",
      "client-0 is still running after the run: it did not power itself off",
    ]);
  });

  it("count phases stored by fewer clients than ran them, and failed instances with their reasons", () => {
    const problems = findProblems(
      evidence({
        phases: [
          {
            index: 1,
            name: "load",
            kind: "load",
            clientsStored: 2,
            clients: 2,
            verdict: "valid",
            throughputOpsSec: 1,
            reasons: [],
          },
          {
            index: 3,
            name: "a",
            kind: "workload",
            clientsStored: 1,
            clients: 2,
            verdict: "invalid",
            throughputOpsSec: 1,
            reasons: [],
          },
        ],
        statuses: new Map([["node-2", status("node-2", "failed", "its machine is gone")]]),
        unserved: ["https://example.com/x", "https://example.com/x"],
      }),
    );
    expect(problems).toEqual([
      "phase 3 a: 1 of 2 client result(s) stored",
      "node-2 failed: its machine is gone",
      "an instance asked for https://example.com/x, which the rehearsal does not serve",
    ]);
  });
});
