import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseClusterDescription } from "../../../model/cluster-description.js";
import { Reporter } from "../../../runner/boot/reporter.js";
import { RunObjects } from "../../../runner/boot/run-objects.js";

/** The boot's Reporter writes each instance's volumes and address into its markers once cluster.json gave them. */
describe("an instance's markers carry what it is billed for beside its hours", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const open = async () => {
    const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-reporter-"));
    dirs.push(dir);
    const objects = await RunObjects.open(`file://${dir}/runs/r1/`);
    return { objects, reporter: new Reporter(objects, "data", 0, join(dir, "node-0.log")) };
  };
  const billing = {
    volumes: [
      { type: "gp3" as const, sizeGiB: 30 },
      { type: "gp3" as const, sizeGiB: 500, iops: 6000, throughputMiBs: 250 },
    ],
    publicIpv4: true,
  };

  it("none before cluster.json is read; from then on every stage and a failure carry them", async () => {
    const { objects, reporter } = await open();
    await reporter.stage("booting");
    expect((await objects.statuses()).get("node-0")?.billing).toBeUndefined();
    reporter.bills(billing);
    await reporter.stage("installed");
    expect((await objects.statuses()).get("node-0")).toMatchObject({ stage: "installed", billing });
    await reporter.failed("the engine died");
    expect((await objects.statuses()).get("node-0")).toMatchObject({ stage: "failed", billing });
  });

  it("a cluster.json of an older stack says none, and the markers then carry none", async () => {
    const { objects, reporter } = await open();
    reporter.bills(undefined);
    await reporter.stage("installed");
    expect((await objects.statuses()).get("node-0")?.billing).toBeUndefined();
  });

  it("cluster.json refuses a volume that is not the shape (bad input names the field)", () => {
    const text = (volumes: unknown) =>
      JSON.stringify({
        descriptionVersion: 1,
        runId: "r1",
        scenario: "s",
        engine: "cassandra",
        version: "5.0.4",
        preset: "balanced",
        loadPreset: "balanced",
        replication: 1,
        recordCount: 1,
        fieldCount: 1,
        serverSettings: {},
        region: "us-east-1",
        bucket: "bkt",
        parameterPath: "/ycsb-lab/r1/",
        nodes: [{ index: 0, address: "10.0.0.1", instanceType: "m6i.large", memoryGiB: 8, vcpus: 2 }],
        clients: [{ index: 0, address: "10.0.0.2", instanceType: "c6i.large" }],
        storage: { data: { kind: "instance-store" }, dataDir: "/data" },
        kit: { sha256: "ab".repeat(32), version: "0.1.0" },
        lifetime: { expiry: "2026-12-01" },
        billing: { data: { volumes, publicIpv4: true }, client: { volumes: [], publicIpv4: true } },
      });
    expect(parseClusterDescription(text(billing.volumes), "cluster.json").billing?.data).toEqual(billing);
    expect(() => parseClusterDescription(text([{ type: "st1", sizeGiB: 30 }]), "cluster.json")).toThrow(
      /cluster\.json: .*\/billing\/data\/volumes\/0\/type/,
    );
  });
});
