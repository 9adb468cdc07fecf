import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BenchmarkScenario } from "../../infra/benchmark-scenario.js";
import { stackConfigFromFiles } from "../../stacks/config-file.js";
import { stackArgs } from "../../stacks/settings.js";
import { type Evaluated, secondUp } from "../support/second-up.js";
import { installMocks, options, recorded, recordOptions, reset, settle, value } from "./infra-mocks.js";

/**
 * A stack's second `pulumi up`: a new run id (every up is a new run) or a rebuilt kit changes every instance's
 * user-data, which replaces the instance; each keeps its fixed private address, which EC2 holds until the old
 * instance is terminated (test/support/second-up.ts models Pulumi's replacement order and EC2's answer).
 */
const KIT = { path: "kit.tar.gz", sha256: "ef".repeat(32), version: "0.1.0" };
const REBUILT = { ...KIT, sha256: "ab".repeat(32) };

beforeAll(installMocks);
beforeEach(reset);

async function evaluate(
  stack: string,
  kit: typeof KIT,
  now: Date,
  overrides: Record<string, string> = {},
): Promise<Evaluated[]> {
  reset();
  const args = stackArgs(stackConfigFromFiles(stack, overrides), stack, kit, now);
  const run = new BenchmarkScenario(args.spec.name, args, { transformations: [recordOptions] });
  await value(run.resultsPrefix);
  await settle();
  return recorded.map((r) => ({ ...r, options: options.get(r.name) as Evaluated["options"] }));
}

describe("a second pulumi up of the same stack", () => {
  it.each(["quickstart", "datastax-2013"])(
    "%s: a new run id replaces every instance, each old one terminated before its address is taken again",
    async (stack) => {
      const first = await evaluate(stack, KIT, new Date("2026-11-23T18:30:00Z"));
      const second = await evaluate(stack, KIT, new Date("2026-11-24T09:05:00Z"));
      const up = secondUp(first, second);
      const instances = second.filter((r) => r.type === "aws:ec2/instance:Instance");
      expect(up.replaced.map((r) => r.name).sort()).toEqual(instances.map((i) => i.name).sort());
      expect(up.replaced.every((r) => r.because.includes("userData"))).toBe(true);
      expect(up.errors).toEqual([]);
      expect(new Set(up.replaced.map((r) => r.order))).toEqual(new Set(["delete-then-create"]));
    },
  );

  it("a rebuilt kit under a fixed run id replaces the fleet the same way", async () => {
    const fixed = { "ycsb-lab:runId": "quickstart-fixed" };
    const first = await evaluate("quickstart", KIT, new Date("2026-11-23T18:30:00Z"), fixed);
    const second = await evaluate("quickstart", REBUILT, new Date("2026-11-23T18:40:00Z"), fixed);
    const up = secondUp(first, second);
    expect(up.replaced.length).toBe(2);
    expect(up.errors).toEqual([]);
  });

  it("the model itself: create-before-delete with a fixed address is refused by EC2", () => {
    const instance = (userData: string, deleteBeforeReplace?: boolean): Evaluated => ({
      type: "aws:ec2/instance:Instance",
      name: "db-node-0",
      inputs: { privateIp: "10.42.1.10", userData, userDataReplaceOnChange: true },
      options: deleteBeforeReplace ? { deleteBeforeReplace } : {},
    });
    expect(secondUp([instance("run 1")], [instance("run 2")]).errors).toEqual([
      "db-node-0: InvalidIPAddress.InUse: 10.42.1.10 is held by db-node-0, which is not terminated yet",
    ]);
    expect(secondUp([instance("run 1")], [instance("run 2", true)]).errors).toEqual([]);
    expect(secondUp([instance("run 1")], [instance("run 1")]).replaced).toEqual([]);
  });
});
