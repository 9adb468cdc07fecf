import { describe, expect, it } from "vitest";
import { BALANCER_STATUS_COMMAND, balancerVerdict, isBalancerUnsupported } from "../../../engines/mongodb/balancer.js";
import { REBALANCE_AFTER_LOAD } from "../../../model/index.js";
import { type AdminCommand, rebalanceWait, waitForMongoBalancer } from "../../../runner/mongodb-balancer.js";

/**
 * Seed 002's method step 2 ("wait for the database to finish rebalancing") on MongoDB. The replies are those
 * MongoDB's manual prints for balancerCollectionStatus
 * (https://www.mongodb.com/docs/manual/reference/command/balancerCollectionStatus/); no mongos runs here.
 */
const replies = (...rs: Record<string, unknown>[]) => {
  const asked: Record<string, unknown>[] = [];
  const command: AdminCommand = async (c) => {
    asked.push(c);
    return rs[Math.min(asked.length - 1, rs.length - 1)]!;
  };
  return { command, asked };
};

describe("lineate-2014's rebalance wait on MongoDB", () => {
  it("reads balancerCollectionStatus as the manual prints it", () => {
    expect(BALANCER_STATUS_COMMAND).toEqual({ balancerCollectionStatus: "ycsb.usertable" });
    const compliant = { balanced: true, reason: "balancerCompliant" };
    expect(balancerVerdict({ balancerCompliant: true, ok: 1 })).toEqual(compliant);
    const imbalanced = { balancerCompliant: false, firstComplianceViolation: "chunksImbalance", ok: 1 };
    expect(balancerVerdict(imbalanced)).toEqual({ balanced: false, reason: "chunksImbalance" });
    expect(balancerVerdict({ ok: 0, errmsg: "ns not sharded" }).balanced).toBe(false);
    expect(balancerVerdict({ ok: 1 }).reason).toMatch(/without balancerCompliant/);
  });

  it("waits while the balancer still moves usertable's chunks, then says how long", async () => {
    const imbalanced = { balancerCompliant: false, firstComplianceViolation: "chunksImbalance", ok: 1 };
    const draining = { balancerCompliant: false, firstComplianceViolation: "draining", ok: 1 };
    const { command, asked } = replies(imbalanced, imbalanced, draining, { balancerCompliant: true, ok: 1 });
    const log: string[] = [];
    const note = await waitForMongoBalancer(command, { pollMs: 1, log: (l) => log.push(l) });
    expect(asked).toHaveLength(4);
    expect(asked.every((c) => c.balancerCollectionStatus === "ycsb.usertable")).toBe(true);
    expect(note).toMatch(/^rebalance wait: mongodb's balancer reports usertable balanced after \d+ s$/);
    // One line per reason, not one per poll.
    expect(log).toEqual([
      "settle: mongodb's balancer still moving usertable's chunks (chunksImbalance), waiting",
      "settle: mongodb's balancer still moving usertable's chunks (draining), waiting",
    ]);
  });

  it("past its time limit the phase goes on and the note says the chunks were still moving", async () => {
    const { command } = replies({ balancerCompliant: false, firstComplianceViolation: "zoneViolation", ok: 1 });
    const note = await waitForMongoBalancer(command, { pollMs: 1, timeoutMs: 0 });
    expect(note).toMatch(/still not balanced after \d+ s \(zoneViolation\): measuring anyway/);
  });

  it("a server without the command (a stand-in) has no balancer to wait for; other errors fail the phase", async () => {
    const notFound = Object.assign(new Error("no such command: 'balancerCollectionStatus'"), {
      code: 59,
      codeName: "CommandNotFound",
    });
    expect(isBalancerUnsupported(notFound)).toBe(true);
    expect(isBalancerUnsupported(new Error("connection refused"))).toBe(false);
    const missing: AdminCommand = async () => {
      throw notFound;
    };
    const none = await waitForMongoBalancer(missing);
    expect(none).toMatch(/^rebalance wait: no balancer answers balancerCollectionStatus .*nothing to wait for$/);
    const down: AdminCommand = async () => {
      throw new Error("connection refused");
    };
    await expect(waitForMongoBalancer(down)).rejects.toThrow(/connection refused/);
  });

  it("the other engines of seed 002 move nothing after a load and say so", async () => {
    const waits = expect.stringMatching(/waits until it reports usertable balanced/);
    expect(REBALANCE_AFTER_LOAD.mongodb).toMatchObject({ moves: true, note: waits });
    const cassandra = await rebalanceWait("cassandra", undefined);
    expect(cassandra).toBe("rebalance wait: cassandra moves no token range after a load: nothing to rebalance");
    expect(await rebalanceWait("couchbase", undefined)).toMatch(/no vBucket/);
    expect(await rebalanceWait("mongodb", undefined)).toMatch(/no mongodb\.url/);
  });
});
