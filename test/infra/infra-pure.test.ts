import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { couchbaseRamQuotaMb } from "../../engines/couchbase/formation.js";
import { mongoProcesses, shardMembers } from "../../engines/mongodb/topology.js";
import { osTuning } from "../../engines/os-tuning.js";
import { engineRuntime } from "../../engines/runtimes.js";
import { addressing } from "../../infra/addressing.js";
import { resolveClientCount } from "../../infra/client-fleet.js";
import { estimateCost } from "../../infra/cost.js";
import { checkLogVolume } from "../../infra/database-cluster.js";
import { deploymentCost, renderCost } from "../../infra/deployment-cost.js";
import { clientPolicy } from "../../infra/policies.js";
import { runLayout } from "../../infra/run-layout.js";
import { checkFit, dataBytesPerNode } from "../../infra/sizing.js";
import { checkRunTags } from "../../infra/tags.js";
import { instanceUserData } from "../../infra/user-data.js";
import { volumeLayout } from "../../infra/volumes.js";
import { ENGINES, type Engine } from "../../model/engine.js";
import { INSTANCE_TYPES, instanceType } from "../../model/instance-types.js";
import { buildPlan } from "../../model/plan.js";
import { DURATION_ASSUMPTIONS, estimateRunDuration } from "../../model/plan-duration.js";
import { kitKey } from "../../model/results-layout.js";
import { ownLogDevice, resolveDeployment, type StorageSpec } from "../../model/scenario.js";
import { SCENARIOS } from "../../model/scenarios.js";
import { shellcheck } from "../support/shellcheck.js";

describe("addressing", () => {
  it.each([
    [1, 1, ["10.42.1.10"], ["10.42.2.10"]],
    [3, 2, ["10.42.1.10", "10.42.1.11", "10.42.1.12"], ["10.42.2.10", "10.42.2.11"]],
  ])("%i nodes, %i clients", (n, c, data, clients) => {
    const a = addressing(n, c);
    expect(a.dataNodeIps).toEqual(data);
    expect(a.clientIps).toEqual(clients);
    expect(a.vpcCidr).toBe("10.42.0.0/16");
  });
  it("rejects more nodes than a /24 holds and a bad base", () => {
    expect(() => addressing(246, 1)).toThrow(/nodes: must be 1\.\.245/);
    expect(() => addressing(1, 0)).toThrow(/clients/);
    expect(() => addressing(1, 1, "10.300")).toThrow(/vpcBase/);
  });
});

describe("client count (seed 001: 1 per 3 data nodes rounded up; seed 000: 1 per 1)", () => {
  it.each([
    [{ dataNodesPerClient: 3, dataNodes: 1 }, 1],
    [{ dataNodesPerClient: 3, dataNodes: 4 }, 2],
    [{ dataNodesPerClient: 3, dataNodes: 32 }, 11],
    [{ dataNodesPerClient: 1, dataNodes: 8 }, 8],
    [{ count: 32 }, 32],
  ])("%j -> %i", (c, n) => expect(resolveClientCount(c)).toBe(n));
});

describe("sizing: every built-in scenario fits its default cell and node counts", () => {
  for (const spec of Object.values(SCENARIOS)) {
    for (const nodes of spec.nodeCounts) {
      if (nodes < spec.replication) continue;
      it(`${spec.name} at ${nodes} node(s)`, () => {
        // At full size: seed 000's 500M records per node at 32 nodes too (model/ycsb-limits.ts).
        const d = resolveDeployment(spec as never, { nodes });
        expect(checkFit(d, spec.dataNode.storage as never)).toEqual([]);
      });
    }
  }
  it("datastax-2013 stores 15M x 2023 B = 30.3 GB per node", () => {
    const d = resolveDeployment(SCENARIOS["datastax-2013"] as never, { nodes: 4 });
    expect(dataBytesPerNode(d) / 1e9).toBeCloseTo(30.345, 2);
  });
});

describe("instance types", () => {
  it("every scenario's machines are in the table with a price; every retired original maps to a current type", () => {
    for (const spec of Object.values(SCENARIOS)) {
      expect(instanceType(spec.dataNode.instanceType).usdPerHour).toBeGreaterThan(0);
      expect(instanceType(spec.clientNode.instanceType).usdPerHour).toBeGreaterThan(0);
    }
    for (const t of Object.values(INSTANCE_TYPES).filter((t) => t.retired))
      expect(INSTANCE_TYPES[t.replacedBy!]?.retired).toBeFalsy();
  });
});

describe("cost", () => {
  it("sums instances and EBS by the hour", () => {
    const c = estimateCost({
      dataNodes: 2,
      dataInstanceType: "m6i.large",
      clients: 1,
      clientInstanceType: "c6i.large",
      dataNodeEbs: [{ type: "gp3", sizeGiB: 730 }],
      clientEbsGiB: 0,
    });
    expect(c.breakdown).toEqual({ dataNodes: 0.192, clients: 0.085, ebs: 0.16, publicIpv4: 0.015, natGateway: 0 });
    expect(c.usdPerHour).toBe(0.452);
    const nat = estimateCost({
      dataNodes: 2,
      dataInstanceType: "m6i.large",
      clients: 1,
      clientInstanceType: "c6i.large",
      dataNodeEbs: [{ type: "gp3", sizeGiB: 730 }],
      clientEbsGiB: 0,
      egress: "nat",
    });
    expect(nat.breakdown).toMatchObject({ publicIpv4: 0.005, natGateway: 0.045 });
    expect(() =>
      estimateCost({
        dataNodes: 1,
        dataInstanceType: "m1.xlarge",
        clients: 1,
        clientInstanceType: "c6i.large",
        dataNodeEbs: [],
        clientEbsGiB: 0,
      }),
    ).toThrow(/no price for "m1.xlarge"/);
  });

  it("prices provisioned gp3 IOPS and throughput beyond the included, and io2 IOPS, as the realized cost does", () => {
    const c = estimateCost({
      dataNodes: 1,
      dataInstanceType: "m6i.large",
      clients: 1,
      clientInstanceType: "c6i.large",
      dataNodeEbs: [
        { type: "gp3", sizeGiB: 730, iops: 4000, throughputMiBs: 225 },
        { type: "io2", sizeGiB: 100, iops: 1000 },
      ],
      clientEbsGiB: 0,
    });
    // By hand (https://aws.amazon.com/ebs/pricing/): 730 GiB x $0.08 + 1,000 IOPS x $0.005 + 100 MiB/s x $0.04 a
    // month, and io2 100 GiB x $0.125 + 1,000 IOPS x $0.065 a month, over 730 hours.
    expect(c.breakdown.ebs).toBe(Math.round(((58.4 + 5 + 4 + 12.5 + 65) / 730) * 1000) / 1000);
  });
});

describe("policies and tags", () => {
  it("a client's policy grants writes only to the keys it owns", () => {
    const l = runLayout("r1");
    const doc = clientPolicy(
      { bucketName: "b", accountId: "1", region: "us-east-1", runId: "r1", ...l, kitKey: kitKey("0".repeat(64)) },
      2,
    );
    const writeResources = doc.Statement.filter((s) => s.Action.some((a) => a.startsWith("s3:Put"))).flatMap(
      (s) => s.Resource,
    );
    expect(writeResources).toEqual([
      "arn:aws:s3:::b/runs/r1/phases/*/client-2/*",
      "arn:aws:s3:::b/runs/r1/barriers/*/client-2.json",
      "arn:aws:s3:::b/runs/r1/status/client-2.json",
      "arn:aws:s3:::b/runs/r1/status/client-2.log",
      "arn:aws:s3:::b/runs/r1/cluster/end.json",
    ]);
  });
  it.each([
    [{ runId: "ok-1", owner: "me", expiry: "2030-01-01" }, []],
    [{ runId: "Bad", owner: "me", expiry: "2030-01-01" }, ["runId"]],
    [{ runId: "ok", owner: "", expiry: "2030-13-45" }, ["owner", "expiry"]],
  ])("tags %j", (t, fields) => expect(checkRunTags({ scenario: "s", ...t }).map((p) => p.field)).toEqual(fields));
});

describe("MongoDB topology", () => {
  it("sharded: config server only on node 0, one shard and a mongos per node", () => {
    expect(mongoProcesses("sharded", 3, 1, 0).map((p) => p.role)).toEqual(["configsvr", "shard-primary", "router"]);
    expect(mongoProcesses("sharded", 3, 1, 2).map((p) => `${p.role}:${p.replicaSet ?? ""}:${p.port}`)).toEqual([
      "shard-primary:shard2:27018",
      "router::27017",
    ]);
  });
  it("replica-set with replication 2 (seed 002 appendix D): primary, secondary and arbiter on three nodes", () => {
    expect(shardMembers("replica-set", 4, 2, 3).map((m) => `${m.node}:${m.role}:${m.port}`)).toEqual([
      "3:shard-primary:27018",
      "0:shard-secondary:27020",
      "1:arbiter:27021",
    ]);
    // replication 3 has an odd number of votes already: no arbiter.
    expect(shardMembers("replica-set", 4, 3, 0).map((m) => m.role)).toEqual([
      "shard-primary",
      "shard-secondary",
      "shard-secondary",
    ]);
  });
});

describe("engines", () => {
  it("OS tuning values come from seed 002 appendix C", () => {
    const t = osTuning("cassandra");
    expect(t).toMatchObject({
      ioScheduler: "none",
      readAheadSectors: 8,
      transparentHugePages: "never",
      limits: { nofile: 100000 },
    });
    expect(osTuning("couchbase").sysctls["vm.zone_reclaim_mode"]).toBe("0");
  });
  it("log volume per preset: Cassandra and MongoDB move the log off the data disk except in throughput", () => {
    const table = (["cassandra", "mongodb", "couchbase", "hbase"] as Engine[]).map((e) => [
      e,
      engineRuntime(e).wantsLogVolume("throughput"),
      engineRuntime(e).wantsLogVolume("balanced"),
      engineRuntime(e).wantsLogVolume("durable"),
    ]);
    expect(table).toEqual([
      ["cassandra", false, true, true],
      ["mongodb", false, true, true],
      ["couchbase", false, false, false],
      ["hbase", false, false, false],
    ]);
  });
  it("Couchbase takes 3/4 of RAM (seed 000: about 23 GB of i2.xlarge's 30.5)", () => {
    expect(couchbaseRamQuotaMb(30.5)).toBe(23424);
  });
  it("no database port is 22 and every engine opens a client port", () => {
    for (const runtime of ENGINES.map((e) => engineRuntime(e))) {
      expect(runtime.ports.client.length).toBeGreaterThan(0);
      expect([...runtime.ports.client, ...runtime.ports.cluster].some((r) => r.from <= 22 && r.to >= 22)).toBe(false);
    }
  });
});

const KIT = "cd".repeat(32);

describe("user-data snapshots (review any change to what boots on AWS)", () => {
  it.each(["data", "client"] as const)("%s", (role) => {
    expect(
      instanceUserData({
        role,
        index: 1,
        runId: "snap",
        region: "us-east-1",
        bucket: "bucket",
        kitSha256: KIT,
        lifetime: { expiry: "2026-12-31", maxHours: 6 },
      }),
    ).toMatchSnapshot();
  });
});

describe("user-data as EC2 runs it", () => {
  const tmp = mkdtempSync(join(tmpdir(), "ycsb-lab-ud-"));
  // The longest run id the tags allow, the longest bucket name S3 allows, a three-digit index.
  const worst = {
    runId: "r".repeat(41),
    region: "ap-southeast-2",
    bucket: "b".repeat(63),
    kitSha256: KIT,
    index: 245,
    lifetime: { expiry: "2026-12-31", maxHours: 12.5 },
  };
  it.each(["data", "client"] as const)("%s: at most 16 KiB, bash -n and shellcheck clean", (role) => {
    const ud = instanceUserData({ ...worst, role });
    expect(Buffer.byteLength(ud)).toBeLessThanOrEqual(16 * 1024);
    const file = join(tmp, `${role}.sh`);
    writeFileSync(file, ud);
    execFileSync("bash", ["-n", file]);
    shellcheck(file);
  });
});

describe("user-data: every failure ends the instance, the brake before any download", () => {
  const boot = {
    index: 0,
    runId: "r1",
    region: "us-east-1",
    bucket: "b",
    kitSha256: KIT,
    lifetime: { expiry: "2026-12-31", maxHours: 0.5 },
  };
  const lines = (ud: string) => ud.split("\n");
  it("has no branch for a rehearsal: the text a rehearsal boots is the text EC2 boots", () => {
    for (const role of ["data", "client", "dashboard"] as const)
      expect(instanceUserData({ ...boot, role })).not.toMatch(/YCSB_LAB_REHEARSAL|AWS_ENDPOINT_URL/);
  });
  it("arms the brake (a persistent timer at the expiry or maxHours) before apt, Node.js or the kit", () => {
    const ud = instanceUserData({ ...boot, role: "client" });
    const at = (re: RegExp) => lines(ud).findIndex((l) => re.test(l));
    expect(at(/systemctl enable --now ycsb-lab-brake\.timer/)).toBeGreaterThan(0);
    for (const later of [/^apt-get .* --error-on=any update$/, /^s3 fetch https:\/\/nodejs\.org/, /^s3 get .*kits\//])
      expect(at(later)).toBeGreaterThan(at(/systemctl enable --now ycsb-lab-brake\.timer/));
    expect(ud).toContain("by_hours=$(( $(date +%s) + 1800 ))");
    expect(ud).toContain("brake_at=$(date -u -d '2026-12-31 23:59:59' +%s)");
    expect(ud).toMatch(/^Persistent=true$/m);
  });
  it("runs under set -Eeuo pipefail with no `a && b` a failing left side would slip past, and a trap that powers off", () => {
    const ud = instanceUserData({ ...boot, role: "data" });
    expect(lines(ud)[2]).toBe("set -Eeuo pipefail");
    // Outside the Python helper's heredoc, no command is guarded by && (set -e ignores a failing left side).
    const script = ud.replace(/<<'PY'[\s\S]*?\nPY\n/, "");
    expect(lines(script).filter((l) => /&&/.test(l))).toEqual([]);
    expect(ud).toContain(`trap 'failed "$LINENO" "$BASH_COMMAND"' ERR`);
    expect(ud).toMatch(
      /failed\(\) \{\n {2}trap - ERR\n {2}report failed "user-data failed at line \$1: \$2"\n {2}systemctl poweroff --no-block\n {2}exit 1\n\}/,
    );
    expect(ud).toContain("-o DPkg::Lock::Timeout=600");
  });
  it("runs the boot as a unit whose control group dies with it, and powers off when the run's work ends or fails", () => {
    const ud = instanceUserData({ ...boot, role: "client" });
    expect(ud).toMatch(/^KillMode=control-group$/m);
    // Done (0) or failed for good (78) powers off from ExecStopPost; a restart loop hits the start limit's action.
    // Not SuccessAction=/FailureAction=, which systemd 252 takes when a restarting unit's process is killed.
    expect(ud).toMatch(/^ExecStopPost=\$YCSB_LAB_HOME\/after-boot$/m);
    expect(ud).toMatch(/^ {2}exited:0\|exited:78\) systemctl poweroff --no-block ;;$/m);
    expect(ud).toMatch(/^StartLimitAction=poweroff$/m);
    expect(ud).not.toMatch(/SuccessAction|FailureAction/);
    const kept = instanceUserData({ ...boot, role: "client", keepAfterRun: true });
    expect(kept).not.toMatch(
      /after-boot|StartLimitAction|report failed "user-data failed at line \$1: \$2"\n {2}systemctl poweroff/,
    );
    expect(kept).toContain("ycsb-lab-brake.timer");
    // The team's dashboard serves until destroyed: no brake, no power-off when its service ends.
    const dashboard = instanceUserData({ ...boot, role: "dashboard", lifetime: undefined });
    expect(dashboard).not.toMatch(/brake|after-boot|poweroff/);
  });
});

describe("the whole run's cost, before anything exists", () => {
  it("endpoint-2015 at 32 nodes: about $407 a day left running (the issue's measure of a forgotten fleet)", () => {
    const spec = SCENARIOS["endpoint-2015"] as never;
    // At full size: 16 billion records (model/ycsb-limits.ts).
    const plan = buildPlan(spec, { nodes: 32 });
    const c = deploymentCost(
      plan.deployment,
      (SCENARIOS["endpoint-2015"] as { dataNode: { storage: StorageSpec } }).dataNode.storage,
      plan,
    );
    // 64 instances: one NAT gateway ($1.20 a day with its address) costs less than 64 public addresses ($7.68 a day).
    expect(c.hourly.egress).toBe("nat");
    expect(c.run.usdPerDayIfLeftRunning).toBeCloseTo(400.2, 0);
    // Three repeats of a load of 16 billion records and five workloads.
    expect(c.run.hours).toBeGreaterThan(10);
    expect(c.run.usd).toBeCloseTo(c.hourly.usdPerHour * c.run.hours + c.run.requests.usd + c.run.natProcessing.usd, 1);
    expect(c.run.natProcessing.gb).toBe(64 * 0.5 + 1);
    const text = renderCost(c, plan.deployment).join("\n");
    expect(text).toMatch(/left running\s+\$400\.\d\d a day/);
    expect(text).toMatch(/egress\s+nat \(with public-ip the run would cost \$[\d,.]+; ycsb-lab:egress chooses\)/);
    expect(c.otherEgress.runUsd).toBeGreaterThan(c.run.usd);
  });
  it("a small fleet keeps its public addresses: cheaper than a NAT gateway's hour", () => {
    const plan = buildPlan(SCENARIOS.quickstart as never, { nodes: 1 });
    const c = deploymentCost(
      plan.deployment,
      (SCENARIOS.quickstart as { dataNode: { storage: StorageSpec } }).dataNode.storage,
      plan,
    );
    expect(c.hourly.egress).toBe("public-ip");
    expect(c.hourly.breakdown).toMatchObject({ publicIpv4: 0.01, natGateway: 0 });
    expect(
      deploymentCost(
        plan.deployment,
        (SCENARIOS.quickstart as { dataNode: { storage: StorageSpec } }).dataNode.storage,
        plan,
        {},
        "nat",
      ).hourly.egress,
    ).toBe("nat");
  });
  it("a phase bounded by its time cap takes the cap; one bounded by operations takes them at the assumed rate per node", () => {
    const plan = buildPlan(SCENARIOS.quickstart as never, { nodes: 1 });
    const d = estimateRunDuration(plan, { ...DURATION_ASSUMPTIONS, opsPerSecPerNode: 100 });
    const a = d.phases.find((p) => p.name === "a")!;
    // 10,000 operations at 100 ops/s would take 100 s; the cap is 60 s.
    expect(a).toMatchObject({ basis: "cap", seconds: 60 + DURATION_ASSUMPTIONS.phaseOverheadSec });
    const fast = estimateRunDuration(plan, { ...DURATION_ASSUMPTIONS, opsPerSecPerNode: 1_000 }).phases.find(
      (p) => p.name === "a",
    )!;
    expect(fast).toMatchObject({ basis: "rate", seconds: 10 + DURATION_ASSUMPTIONS.phaseOverheadSec });
  });
});

describe("where each study kept the commit log / journal", () => {
  it.each([
    ["endpoint-2015", "cassandra", "durable", false],
    ["datastax-2013", "cassandra", "balanced", false],
    ["usa-2015-durability", "cassandra", "balanced", true],
    ["usa-2015-durability", "cassandra", "durable", false],
    ["usa-2015-durability", "mongodb", "balanced", true],
    ["lineate-2014", "mongodb", "balanced", true],
    ["andor-parv-2019", "mongodb", "balanced", false],
    ["quickstart", "cassandra", "balanced", true],
  ] as const)("%s %s %s: own device %s", (scenario, engine, preset, own) => {
    const spec = SCENARIOS[scenario] as never;
    expect(ownLogDevice(spec, engine, preset)).toBe(own);
    expect(volumeLayout({ kind: "instance-store" }, own).storage.logDir !== undefined).toBe(own);
  });
  it("gp3 IOPS and throughput of the log volume are configurable within gp3's limits", () => {
    expect(
      volumeLayout({ kind: "instance-store" }, true, { sizeGiB: 200, iops: 6000, throughputMiBs: 500 }).ebs,
    ).toEqual([
      {
        deviceName: "/dev/sdg",
        volumeType: "gp3",
        volumeSize: 200,
        iops: 6000,
        throughput: 500,
        encrypted: true,
        deleteOnTermination: true,
      },
    ]);
    expect(checkLogVolume({ iops: 100, throughputMiBs: 5000 }).map((p) => p.field)).toEqual([
      "logVolume.iops",
      "logVolume.throughputMiBs",
    ]);
  });
});

describe("user-data: a service systemd gives up on is reported, not left at its last stage", () => {
  const boot = { index: 0, runId: "r1", region: "us-east-1", bucket: "b", kitSha256: KIT };
  /** The text of the heredoc `cat > "$YCSB_LAB_HOME/bin/<name>" <<'TAG'` in the rendered user-data. */
  const script = (ud: string, name: string): string => {
    const m = new RegExp(`cat > "\\$YCSB_LAB_HOME/bin/${name}" <<'(\\w+)'\\n([\\s\\S]*?)\\n\\1\\n`).exec(ud);
    if (!m) throw new Error(`user-data writes no bin/${name}`);
    return `${m[2]}\n`;
  };
  /** A home with the two scripts, stubs of systemctl and journalctl answering as a unit in `state` would. */
  function home(ud: string, unit: { state: string; status: number; restarts: number; journal: string }): string {
    const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-failed-"));
    for (const sub of ["bin", "stubs", "logs"]) mkdirSync(join(dir, sub));
    const put = (path: string, text: string) => writeFileSync(path, text, { mode: 0o755 });
    put(`${dir}/bin/service-failed`, script(ud, "service-failed"));
    put(`${dir}/bin/report`, script(ud, "report"));
    // The S3 helper records what it is asked to put, and the piped body when it reads standard input.
    put(
      `${dir}/bin/s3`,
      `#!/bin/bash\nif [ "$2" = - ]; then cat > "${dir}/put-log"; fi\necho "$*" >> "${dir}/s3-calls"\n`,
    );
    const show = { ActiveState: unit.state, ExecMainStatus: unit.status, NRestarts: unit.restarts };
    put(
      `${dir}/stubs/systemctl`,
      `#!/bin/bash\ncase "$3" in\n${Object.entries(show)
        .map(([k, v]) => `  ${k}) echo ${v} ;;`)
        .join("\n")}\nesac\n`,
    );
    writeFileSync(`${dir}/journal`, unit.journal);
    put(`${dir}/stubs/journalctl`, `#!/bin/bash\ncat "${dir}/journal"\n`);
    return dir;
  }
  const run = (dir: string) =>
    execFileSync("bash", [`${dir}/bin/service-failed`], {
      env: { PATH: `${dir}/stubs:${process.env.PATH}`, YCSB_LAB_HOME: dir },
      encoding: "utf8",
    });
  const statusOf = (dir: string) => {
    try {
      return JSON.parse(readFileSync(`${dir}/status.json`, "utf8"));
    } catch {
      return undefined;
    }
  };
  const crashLoop = [
    "Started ycsb-lab.service.",
    "Error: the kit cannot open its state",
    "ycsb-lab.service: Main process exited, code=exited, status=1/FAILURE",
    "Error: the kit cannot open its state",
    "ycsb-lab.service: Start request repeated too quickly.",
    "",
  ].join("\n");

  it("the service names its failure unit, which runs before the power-off with the service's environment", () => {
    const ud = instanceUserData({ ...boot, role: "client", lifetime: { expiry: "2026-12-31" } });
    expect(ud).toMatch(/^OnFailure=ycsb-lab-failed\.service$/m);
    const unit = /cat > \/etc\/systemd\/system\/ycsb-lab-failed\.service <<UNIT\n([\s\S]*?)\nUNIT\n/.exec(ud)?.[1];
    expect(unit).toMatch(/^DefaultDependencies=no$/m);
    expect(unit).toMatch(/^Before=shutdown\.target$/m);
    expect(unit).toMatch(
      /^Environment=YCSB_LAB_HOME=\$YCSB_LAB_HOME AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1$/m,
    );
    expect(unit).toMatch(/^ExecStart=\$YCSB_LAB_HOME\/bin\/service-failed$/m);
    // The dashboard, which never powers itself off, reports the same way.
    expect(instanceUserData({ ...boot, role: "dashboard" })).toMatch(/^OnFailure=ycsb-lab-failed\.service$/m);
  });

  it("reports failed with the command's error lines once each, and the journal as the log's tail", () => {
    const ud = instanceUserData({ ...boot, role: "client" });
    const dir = home(ud, { state: "failed", status: 1, restarts: 4, journal: crashLoop });
    run(dir);
    const status = statusOf(dir);
    expect(status).toMatchObject({ instance: "client-0", role: "client", index: 0, stage: "failed", logTail: true });
    expect(status.detail).toBe(
      "ycsb-lab.service failed for good after 4 restart(s) (exit status 1): Error: the kit cannot open its state",
    );
    expect(readFileSync(`${dir}/put-log`, "utf8")).toContain("Start request repeated too quickly");
    expect(readFileSync(`${dir}/s3-calls`, "utf8")).toContain("put - s3://b/runs/r1/status/client-0.log text/plain");
  });

  it("says nothing while systemd restarts the service, nor after exit 78 (the kit reported it in its own words)", () => {
    const ud = instanceUserData({ ...boot, role: "client" });
    for (const unit of [
      { state: "activating", status: 1, restarts: 2, journal: crashLoop },
      { state: "failed", status: 78, restarts: 0, journal: crashLoop },
    ]) {
      const dir = home(ud, unit);
      run(dir);
      expect(statusOf(dir)).toBeUndefined();
    }
  });

  it("both scripts are bash -n and shellcheck clean", () => {
    const ud = instanceUserData({ ...boot, role: "client" });
    const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-scripts-"));
    for (const name of ["report", "service-failed"]) {
      const file = join(dir, `${name}.sh`);
      writeFileSync(file, script(ud, name));
      execFileSync("bash", ["-n", file]);
      shellcheck(file);
    }
  });
});
