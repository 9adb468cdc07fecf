import { describe, expect, it } from "vitest";
import type { InstanceStatus } from "../../model/instance-status.js";
import { type WatchedMachine, watchStatuses } from "../../rehearse/watch.js";

const status = (stage: InstanceStatus["stage"], at: string, detail?: string): InstanceStatus => ({
  instance: "client-0",
  role: "client",
  index: 0,
  stage,
  at,
  ...(detail ? { detail, logTail: true } : {}),
});

describe("watching a rehearsal's statuses (rehearse/watch.ts)", () => {
  it("delivers the failed status of a machine that failed and powered off between a poll and the check after it", async () => {
    // user-data's ERR trap writes `failed` and then powers the machine off; here both happen just after a poll read.
    const machine = { name: "client-0", running: true };
    let stored = new Map([["client-0", status("booting", "2026-11-25T07:00:00Z", "installing OS packages")]]);
    let polls = 0;
    const poll = async () => {
      const read = new Map(stored);
      if (++polls === 1) {
        stored = new Map([
          [
            "client-0",
            status("failed", "2026-11-25T07:00:05Z", "user-data failed at line 40: sha256sum -c node.sha256"),
          ],
        ]);
        machine.running = false;
      }
      return read;
    };
    const seen: InstanceStatus[] = [];
    const end = await watchStatuses({
      machines: [machine],
      poll,
      onStatus: (s) => void seen.push(s),
      deadline: Number.MAX_SAFE_INTEGER,
      sleep: async () => {},
    });
    expect(seen.map((s) => s.stage)).toEqual(["booting", "failed"]);
    expect(end.statuses.get("client-0")?.stage).toBe("failed");
    expect(end.timedOut).toBe(false);
  });

  it("ends on the clients' last statuses, not on data nodes still serving, and delivers each status once", async () => {
    const machines: WatchedMachine[] = [
      { name: "node-0", running: true },
      { name: "client-0", running: true },
    ];
    const steps = [
      status("booting", "2026-11-25T07:00:00Z", "installing OS packages"),
      status("running", "2026-11-25T07:01:00Z"),
      status("done", "2026-11-25T07:02:00Z"),
    ];
    let polls = 0;
    const poll = async () => new Map([["client-0", steps[Math.min(Math.floor(polls++ / 2), steps.length - 1)]!]]);
    const seen: string[] = [];
    const end = await watchStatuses({
      machines,
      poll,
      onStatus: (s) => void seen.push(s.stage),
      deadline: Number.MAX_SAFE_INTEGER,
      sleep: async () => {},
    });
    expect(seen).toEqual(["booting", "running", "done"]);
    expect(end.timedOut).toBe(false);
  });

  it("says it timed out when the deadline passes with a client still running", async () => {
    let t = 0;
    const end = await watchStatuses({
      machines: [{ name: "client-0", running: true }],
      poll: async () => new Map([["client-0", status("running", "2026-11-25T07:01:00Z")]]),
      onStatus: () => {},
      deadline: 10_000,
      now: () => (t += 3000),
      sleep: async () => {},
    });
    expect(end.timedOut).toBe(true);
    expect(end.statuses.get("client-0")?.stage).toBe("running");
  });
});
