import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEPLOYER_ACTIONS, DEPLOYER_LOOKUPS, deployerPolicy } from "../../infra/deployer-policy.js";
import { evaluatePolicy } from "../../infra/policy-eval.js";
import { stackConfigFromFiles, stackNames } from "../../stacks/config-file.js";
import { stackProgram } from "../../stacks/program.js";
import { stackKind } from "../../stacks/settings.js";
import { calls, installMocks, MOCK_ACCOUNT, recorded, reset, settle, value } from "./infra-mocks.js";

/**
 * `ycsb-lab plan --deployer-policy` (infra/deployer-policy.ts): every resource type and every lookup of every scenario
 * stack, in each of its shapes (public addresses or a NAT gateway, reserved capacity), is covered by the policy, and
 * nothing beyond the stack's own names.
 */
const KIT = { path: "kit.tar.gz", sha256: "ef".repeat(32), version: "0.1.0" };
const NOW = new Date("2026-11-23T18:30:00Z");
const scenarios = stackNames().filter((s) => stackKind(stackConfigFromFiles(s)) === "scenario");

beforeAll(installMocks);
beforeEach(reset);

async function evaluate(stack: string, overrides: Record<string, string>) {
  const out = stackProgram(stackConfigFromFiles(stack, overrides), stack, KIT, NOW);
  await value(out.resultsPrefix);
  await settle();
  return {
    scenario: out.scenario,
    types: new Set(recorded.filter((r) => !r.type.startsWith("ycsb-lab:")).map((r) => r.type)),
    lookups: new Set(calls),
    resources: [...recorded],
  };
}

describe("the deploying principal's policy", () => {
  it.each(
    scenarios.flatMap(
      (s) =>
        [
          [s, {}],
          [s, { "ycsb-lab:egress": "nat", "ycsb-lab:reserveCapacity": "true" }],
        ] as const,
    ),
  )(
    "%s %j: every resource type and lookup is granted",
    async (stack, overrides) => {
      const { scenario, types, lookups, resources } = await evaluate(stack, overrides);
      expect([...types].filter((t) => !DEPLOYER_ACTIONS[t])).toEqual([]);
      expect([...lookups].filter((t) => !DEPLOYER_LOOKUPS[t])).toEqual([]);
      const policy = deployerPolicy({ account: MOCK_ACCOUNT, region: "us-east-1", name: scenario, stack });
      const arnOf = (r: (typeof resources)[number]): string => {
        const e = DEPLOYER_ACTIONS[r.type]!;
        if (e.service === "s3")
          return r.type.endsWith("bucketObjectv2:BucketObjectv2")
            ? `arn:aws:s3:::${r.inputs.bucket}/${r.inputs.key}`
            : `arn:aws:s3:::${scenario}-results-bucket`;
        if (e.service === "iam")
          return `arn:aws:iam::${MOCK_ACCOUNT}:${r.type.endsWith("instanceProfile:InstanceProfile") ? "instance-profile" : "role"}/${r.name}-a1b2c3d`;
        if (e.service === "ssm") return `arn:aws:ssm:us-east-1:${MOCK_ACCOUNT}:parameter${r.inputs.name}`;
        return "*";
      };
      const requests = new Set(
        resources
          .filter((x) => DEPLOYER_ACTIONS[x.type])
          .flatMap((r) =>
            DEPLOYER_ACTIONS[r.type]!.actions.filter((a) => !a.includes("*")).map((a) => `${a} ${arnOf(r)}`),
          ),
      );
      const refused = [...requests].filter((q) => {
        const [action, resource] = q.split(" ") as [string, string];
        return (
          evaluatePolicy(policy, { action, resource, context: { "aws:RequestedRegion": "us-east-1" } }) !== "allowed"
        );
      });
      expect(refused).toEqual([]);
    },
    180_000,
  );

  it("grants nothing beyond the stack's own names and region", () => {
    const policy = deployerPolicy({
      account: MOCK_ACCOUNT,
      region: "eu-west-1",
      name: "quickstart",
      stack: "quickstart",
    });
    const denied = (action: string, resource: string, context: Record<string, string> = {}) =>
      expect(evaluatePolicy(policy, { action, resource, context }), `${action} ${resource}`).not.toBe("allowed");
    denied("iam:PassRole", `arn:aws:iam::${MOCK_ACCOUNT}:role/admin`, { "iam:PassedToService": "ec2.amazonaws.com" });
    denied("iam:PassRole", `arn:aws:iam::${MOCK_ACCOUNT}:role/quickstart-db-node-role-a1b2c3d`, {
      "iam:PassedToService": "lambda.amazonaws.com",
    });
    denied("iam:CreateRole", `arn:aws:iam::${MOCK_ACCOUNT}:role/someone-else`);
    denied("s3:PutObject", "arn:aws:s3:::other-team-bucket/x");
    denied("ec2:RunInstances", "*", { "aws:RequestedRegion": "us-east-1" });
    denied("ssm:PutParameter", `arn:aws:ssm:eu-west-1:${MOCK_ACCOUNT}:parameter/ycsb-lab/pins/other-stack/ami`);
    expect(
      evaluatePolicy(policy, {
        action: "iam:PassRole",
        resource: `arn:aws:iam::${MOCK_ACCOUNT}:role/quickstart-db-node-role-a1b2c3d`,
        context: { "iam:PassedToService": "ec2.amazonaws.com" },
      }),
    ).toBe("allowed");
    expect(JSON.stringify(policy)).not.toMatch(/"(ec2|s3|iam|ssm):\*"/);
  });
});
