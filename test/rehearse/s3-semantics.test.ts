import { describe, expect, it } from "vitest";
import { clientPolicy, dataNodePolicy, type PolicyDocument } from "../../infra/policies.js";
import { runLayout } from "../../infra/run-layout.js";
import { kitKey } from "../../model/results-layout.js";
import { canListBucket, judgeAnswer, judgeRequest } from "../../rehearse/s3-semantics.js";
import { giveUpOnLeader, observeLeader } from "../../runner/boot/engine-install.js";

const scope = { region: "us-east-1", account: "123456789012" };
const policyScope = {
  bucketName: "results",
  accountId: scope.account,
  region: scope.region,
  runId: "r1",
  ...runLayout("r1"),
  kitKey: kitKey("a".repeat(64)),
};
const getOnly: PolicyDocument = {
  Version: "2012-10-17",
  Statement: [{ Sid: "Get", Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::results/runs/r1/*"] }],
};
const withList: PolicyDocument = {
  Version: "2012-10-17",
  Statement: [
    ...getOnly.Statement,
    { Sid: "List", Effect: "Allow", Action: ["s3:ListBucket"], Resource: ["arn:aws:s3:::results"] },
  ],
};
const get = (key: string) => ({ method: "GET", path: `/results/${key}`, query: {} });

describe("S3 as AWS answers a principal (rehearse/s3-semantics.ts)", () => {
  it("a missing key read without s3:ListBucket is 403 AccessDenied; with it, S3's own 404 stands", () => {
    expect(judgeAnswer(get("runs/r1/cluster/ready.json"), getOnly, scope, 404)).toMatchObject({
      kind: "refuse",
      status: 403,
      code: "AccessDenied",
      rule: "missing-key-without-list",
    });
    expect(judgeAnswer({ ...get("runs/r1/cluster/ready.json"), method: "HEAD" }, getOnly, scope, 404)).toMatchObject({
      kind: "refuse",
      status: 403,
    });
    expect(judgeAnswer(get("runs/r1/cluster/ready.json"), withList, scope, 404)).toEqual({ kind: "forward" });
    expect(judgeAnswer(get("runs/r1/cluster/ready.json"), getOnly, scope, 200)).toEqual({ kind: "forward" });
  });

  it("a ListBucket granted only under an s3:prefix condition does not count for a GET, which carries no prefix", () => {
    const client = clientPolicy(policyScope, 0);
    expect(canListBucket(client, "results")).toBe(false);
    expect(judgeAnswer(get("runs/r1/cluster/ready.json"), client, scope, 404)).toMatchObject({
      kind: "refuse",
      rule: "missing-key-without-list",
    });
  });

  it("judges the conditions moto ignores before the emulator sees the call", () => {
    const node = dataNodePolicy(policyScope);
    const list = (prefix?: string) => ({
      method: "GET",
      path: "/results",
      query: { "list-type": "2", ...(prefix !== undefined ? { prefix } : {}) },
    });
    expect(judgeRequest(list("runs/r1/cluster/ready.json"), node, scope)).toEqual({ kind: "forward" });
    expect(judgeRequest(list("runs/r2/cluster/"), node, scope)).toMatchObject({ kind: "refuse", rule: "policy" });
    expect(judgeRequest(list(), node, scope)).toMatchObject({ kind: "refuse", rule: "policy" });
    expect(
      judgeRequest(
        { method: "PUT", path: "/results/runs/r1/plan.json", query: {} },
        clientPolicy(policyScope, 1),
        scope,
      ),
    ).toMatchObject({ kind: "refuse", request: { action: "s3:PutObject" } });
    // Calls of other services pass to the emulator (SSM judges its own).
    expect(judgeRequest({ method: "POST", path: "/", query: {} }, node, scope)).toEqual({ kind: "forward" });
  });
});

describe("a data node's wait for the leader's mirrored download (runner/boot/engine-install.ts)", () => {
  const at = (bytes: number) => ({ state: "downloading" as const, bytes, at: `t${bytes}` });
  it("keeps waiting while the leader's bytes move, and gives up after the stall limit without movement", () => {
    let w = { since: 0, lastMove: 0 };
    w = observeLeader(w, at(100), 60_000);
    w = observeLeader(w, at(200), 600_000);
    expect(giveUpOnLeader(w, 1_100_000, 600_000)).toBe(false);
    w = observeLeader(w, at(200), 1_100_000);
    expect(giveUpOnLeader(w, 1_300_000, 600_000)).toBe(true);
  });
  it("gives up at once when the leader failed, or mirrored a copy this node could not use", () => {
    const w = { since: 0, lastMove: 0 };
    expect(
      giveUpOnLeader(observeLeader(w, { state: "failed", bytes: 0, at: "t", reason: "HTTP 503" }, 1), 1, 600_000),
    ).toBe(true);
    expect(giveUpOnLeader(observeLeader(w, { state: "mirrored", bytes: 9, at: "t" }, 1), 1, 600_000)).toBe(true);
    expect(giveUpOnLeader(observeLeader(w, undefined, 1), 1, 600_000)).toBe(false);
  });
});
