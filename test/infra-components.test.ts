import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { parse as parseYaml } from "yaml";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { calls, countByType, installMocks, MOCK_ACCOUNT, MOCK_AMI, ofType, recorded, reset, settle, value } from "./infra-mocks.js";
import { BenchmarkNetwork } from "../infra/network.js";
import { ResultsBucket } from "../infra/results-bucket.js";
import { DatabaseCluster, type DatabaseClusterArgs } from "../infra/database-cluster.js";
import { ClientFleet } from "../infra/client-fleet.js";
import { ENGINE_KITS } from "../engines/kits.js";
import { addressing } from "../infra/addressing.js";
import type { Engine } from "../model/engine.js";
import type { Preset } from "../model/presets.js";

beforeAll(installMocks);
beforeEach(reset);

const tmp = mkdtempSync(join(tmpdir(), "ycsb-lab-infra-"));
/** `bash -n` on a rendered script: a syntax error fails the test with bash's message. */
function bashSyntax(script: string): void {
  const file = join(tmp, `script-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, script);
  execFileSync("bash", ["-n", file], { stdio: "pipe" });
}

/** Every file a script writes with a heredoc, by path. */
function heredocFiles(script: string): Map<string, string> {
  const files = new Map<string, string>();
  const re = /^cat > '([^']+)' <<'(YCSB_LAB_EOF_*)'\n([\s\S]*?)\n\2$/gm;
  for (const m of script.matchAll(re)) files.set(m[1]!, m[3]!);
  return files;
}

const clusterArgs = (engine: Engine, preset: Preset, over: Partial<DatabaseClusterArgs> = {}): DatabaseClusterArgs => ({
  engine,
  preset,
  nodeIps: addressing(3, 1).dataNodeIps,
  instanceType: "m5d.xlarge",
  storage: { kind: "instance-store" },
  recordCount: 3_000_000,
  fieldCount: 10,
  subnetId: "subnet-1",
  securityGroupId: "sg-1",
  resultsBucketName: "results-bucket",
  runId: "run-1",
  region: "us-east-1",
  ...over,
});

describe("BenchmarkNetwork", () => {
  it("builds one VPC in one AZ with two subnets, an S3 gateway endpoint and locked-down security groups", async () => {
    const net = new BenchmarkNetwork("net", { region: "eu-west-1", ports: ENGINE_KITS.cassandra.ports });
    await value(net.dataSecurityGroupId);
    await settle();
    expect(countByType()).toMatchObject({
      "ycsb-lab:index:BenchmarkNetwork": 1,
      "aws:ec2/vpc:Vpc": 1,
      "aws:ec2/subnet:Subnet": 2,
      "aws:ec2/vpcEndpoint:VpcEndpoint": 1,
      "aws:ec2/securityGroup:SecurityGroup": 2,
      "aws:ec2/internetGateway:InternetGateway": 1,
    });
    const subnets = ofType("aws:ec2/subnet:Subnet");
    expect(new Set(subnets.map((s) => s.inputs.availabilityZone))).toEqual(new Set(["us-east-1a"]));
    expect(ofType("aws:ec2/vpcEndpoint:VpcEndpoint")[0]!.inputs).toMatchObject({ serviceName: "com.amazonaws.eu-west-1.s3", vpcEndpointType: "Gateway" });
    const client = recorded.find((r) => r.name === "net-client-sg")!;
    const data = recorded.find((r) => r.name === "net-data-sg")!;
    expect(client.inputs.ingress ?? []).toEqual([]);
    const ingress = data.inputs.ingress as Array<Record<string, any>>;
    // CQL from the client group only; storage port 7000 only between data nodes; nothing from any CIDR, no port 22.
    const cql = ingress.filter((r) => r.fromPort === 9042);
    expect(cql.some((r) => r.securityGroups?.[0] === "net-client-sg-id" && !r.self)).toBe(true);
    expect(ingress.filter((r) => r.fromPort === 7000).every((r) => r.self === true && !r.securityGroups)).toBe(true);
    expect(ingress.every((r) => !r.cidrBlocks?.length && !r.ipv6CidrBlocks?.length)).toBe(true);
    expect(ingress.some((r) => r.fromPort <= 22 && r.toPort >= 22)).toBe(false);
  });

  it("rejects port 22 and a bad region before creating anything", () => {
    expect(() => new BenchmarkNetwork("bad", { region: "us-east-1", ports: { client: [{ from: 22, to: 22, description: "ssh" }], cluster: [] } })).toThrow(/ports: port 22/);
    expect(() => new BenchmarkNetwork("bad2", { region: "mars", ports: ENGINE_KITS.hbase.ports })).toThrow(/region/);
    expect(recorded).toEqual([]);
  });
});

describe("ResultsBucket", () => {
  it("is encrypted, blocks public access, enforces TLS and has lifecycle rules", async () => {
    const b = new ResultsBucket("results", { expireAfterDays: 365 });
    await value(b.bucketName);
    await settle();
    const pab = ofType("aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock")[0]!.inputs;
    expect(pab).toMatchObject({ blockPublicAcls: true, blockPublicPolicy: true, ignorePublicAcls: true, restrictPublicBuckets: true });
    const sse = ofType("aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration")[0]!.inputs;
    expect(sse.rules[0].applyServerSideEncryptionByDefault.sseAlgorithm).toBe("AES256");
    const rules = ofType("aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration")[0]!.inputs.rules;
    expect(rules[0]).toMatchObject({ status: "Enabled", transitions: [{ days: 30, storageClass: "STANDARD_IA" }], expiration: { days: 365 } });
    const policy = JSON.parse(ofType("aws:s3/bucketPolicy:BucketPolicy")[0]!.inputs.policy);
    expect(policy.Statement[0]).toMatchObject({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } });
    expect(ofType("aws:s3/bucket:Bucket")[0]!.inputs.forceDestroy).toBe(false);
  });

  it("rejects a Standard-IA transition before 30 days", () => {
    expect(() => new ResultsBucket("r2", { infrequentAccessAfterDays: 7 })).toThrow(/infrequentAccessAfterDays/);
    expect(recorded).toEqual([]);
  });
});

async function buildCluster(name: string, args: DatabaseClusterArgs) {
  const c = new DatabaseCluster(name, args);
  await Promise.all(c.instanceIds.map(value));
  await settle();
  const instances = ofType("aws:ec2/instance:Instance").filter((r) => r.name.startsWith(`${name}-`));
  return { cluster: c, instances, userData: instances.map((i) => i.inputs.userData as string) };
}

describe("DatabaseCluster", () => {
  it("launches one hardened instance per node from the looked-up Ubuntu AMI, with SSM and a scoped role", async () => {
    const { cluster, instances } = await buildCluster("cas", clusterArgs("cassandra", "balanced"));
    expect(instances).toHaveLength(3);
    expect(calls).toContain("aws:ec2/getAmi:getAmi");
    for (const [i, inst] of instances.entries()) {
      expect(inst.inputs).toMatchObject({
        ami: MOCK_AMI,
        instanceType: "m5d.xlarge",
        privateIp: `10.42.1.${10 + i}`,
        metadataOptions: { httpTokens: "required" },
        rootBlockDevice: { encrypted: true },
        placementGroup: "cas-placement",
      });
      expect(inst.inputs.keyName).toBeUndefined();
      expect(inst.inputs.tags).toMatchObject({ "ycsb-lab:engine": "cassandra", "ycsb-lab:preset": "balanced" });
      // balanced keeps the commitlog on its own encrypted volume (seed 004).
      expect(inst.inputs.ebsBlockDevices).toEqual([expect.objectContaining({ deviceName: "/dev/sdg", encrypted: true })]);
    }
    expect(ofType("aws:iam/rolePolicyAttachment:RolePolicyAttachment")[0]!.inputs.policyArn).toBe("arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore");
    const policy = JSON.parse(ofType("aws:iam/rolePolicy:RolePolicy")[0]!.inputs.policy);
    const put = policy.Statement.find((s: any) => s.Action.includes("s3:PutObject"));
    expect(put.Resource).toEqual(["arn:aws:s3:::results-bucket/runs/run-1/cluster/*"]);
    expect(policy.Statement.find((s: any) => s.Action.includes("ssm:PutParameter")).Resource).toEqual([`arn:aws:ssm:us-east-1:${MOCK_ACCOUNT}:parameter/ycsb-lab/run-1/*`]);
    expect(cluster.endpoints).toEqual(["10.42.1.10:9042", "10.42.1.11:9042", "10.42.1.12:9042"]);
  });

  it("renders a cassandra.yaml per preset that a YAML parser reads, with the preset's commitlog settings", async () => {
    const seen: Record<string, any> = {};
    for (const preset of ["throughput", "balanced", "durable"] as const) {
      reset();
      const { userData, instances } = await buildCluster(`cas-${preset}`, clusterArgs("cassandra", preset));
      for (const script of userData) bashSyntax(script);
      const yaml = parseYaml(heredocFiles(userData[1]!).get("/etc/cassandra/cassandra.yaml")!);
      expect(yaml.listen_address).toBe("10.42.1.11");
      expect(yaml.seed_provider[0].parameters[0].seeds).toBe("10.42.1.10,10.42.1.11,10.42.1.12");
      seen[preset] = { yaml, cql: userData[0]!, ebs: instances[0]!.inputs.ebsBlockDevices };
    }
    expect(seen.throughput.yaml.commitlog_sync).toBe("periodic");
    expect(seen.balanced.yaml.commitlog_sync_period).toBe("10000ms");
    expect(seen.durable.yaml.commitlog_sync).toBe("batch");
    expect(seen.throughput.cql).toContain("durable_writes = false");
    expect(seen.durable.cql).toContain("durable_writes = true");
    expect(seen.throughput.ebs).toEqual([]);
    expect(seen.balanced.yaml.commitlog_directory).toBe("/log/cassandra/commitlog");
    expect(seen.throughput.yaml.commitlog_directory).toBe("/data/cassandra/commitlog");
  });

  it("writes a study's server settings into cassandra.yaml (seed 003 timeouts) and refuses ones that clash or that an engine ignores", async () => {
    const { userData } = await buildCluster("timeouts", clusterArgs("cassandra", "balanced", { nodeIps: ["10.42.1.10"], serverSettings: { write_request_timeout: "100000ms" } }));
    expect(parseYaml(heredocFiles(userData[0]!).get("/etc/cassandra/cassandra.yaml")!).write_request_timeout).toBe("100000ms");
    reset();
    expect(() => new DatabaseCluster("clash", clusterArgs("cassandra", "balanced", { serverSettings: { commitlog_sync: "batch" } }))).toThrow(/serverSettings\.cassandra: "commitlog_sync" is already set/);
    expect(() => new DatabaseCluster("ignored", clusterArgs("hbase", "balanced", { serverSettings: { "hbase.x": "1" } }))).toThrow(/serverSettings\.hbase: "hbase\.x" is not applied/);
    expect(recorded).toEqual([]);
  });

  it("MongoDB sharded (seeds 000/001): config server on node 0, a shard and a mongos per node, chunk pre-split", async () => {
    const { userData } = await buildCluster("mongo", clusterArgs("mongodb", "durable"));
    userData.forEach(bashSyntax);
    const leader = heredocFiles(userData[0]!);
    expect(parseYaml(leader.get("/etc/mongodb/configsvr.conf")!).sharding.clusterRole).toBe("configsvr");
    const shard = parseYaml(heredocFiles(userData[2]!).get("/etc/mongodb/shard2-27018.conf")!);
    expect(shard).toMatchObject({ sharding: { clusterRole: "shardsvr" }, replication: { replSetName: "shard2" }, net: { port: 27018 } });
    expect(parseYaml(heredocFiles(userData[2]!).get("/etc/mongodb/mongos.conf")!).sharding.configDB).toBe("cfg/10.42.1.10:27019");
    expect(heredocFiles(userData[1]!).has("/etc/mongodb/configsvr.conf")).toBe(false);
    expect(userData[0]).toContain('"moveChunk":"ycsb.usertable"');
    expect(userData[0]).toContain("sh.addShard(\\\"shard2/10.42.1.12:27018\\\")".replace(/\\/g, ""));
    // durable: journal on its own volume, symlinked into the dbPath.
    expect(userData[1]).toMatch(/ln -sfn '\/log\/mongodb\/shard1-27018' '\/data\/mongodb\/shard1-27018\/journal'/);
  });

  it("MongoDB throughput keeps the journal on the data volume; Couchbase presets differ only on the client side", async () => {
    const mongo = await buildCluster("mthr", clusterArgs("mongodb", "throughput"));
    expect(mongo.instances[0]!.inputs.ebsBlockDevices).toEqual([]);
    expect(mongo.userData[0]).not.toContain("ln -sfn");
    reset();
    const bucketLine = async (preset: Preset) => {
      reset();
      const { userData } = await buildCluster(`cb-${preset}`, clusterArgs("couchbase", preset, { instanceType: "i4i.xlarge" }));
      return userData[0]!.split("\n").find((l) => l.includes("bucket-create"));
    };
    const lines = await Promise.all([bucketLine("throughput")]).then(async ([t]) => [t, await bucketLine("durable")]);
    // Durability is the SDK's durability level per write (model/presets.ts client side); the bucket is the same.
    expect(lines[0]).toBeDefined();
    expect(lines[0]).toBe(lines[1]);
  });

  it("MongoDB replica-set layout (seed 002): each node primary of one shard, secondary of the previous, arbiter of the one before", async () => {
    const { userData } = await buildCluster("mrs", clusterArgs("mongodb", "balanced", { nodeIps: addressing(4, 1).dataNodeIps, replication: 2, mongoTopology: "replica-set" }));
    userData.forEach(bashSyntax);
    const node1 = [...heredocFiles(userData[1]!).entries()].filter(([p]) => /\/etc\/mongodb\/shard/.test(p)).map(([, c]) => parseYaml(c).replication.replSetName).sort();
    expect(node1).toEqual(["shard0", "shard1", "shard3"]);
    expect(userData[0]).toContain('{"_id":2,"host":"10.42.1.12:27021","arbiterOnly":true}');
  });

  it("Couchbase: cluster-init on node 0, server-add from the others, one rebalance, full-eviction bucket; no password in user-data", async () => {
    const { userData, instances } = await buildCluster("cb", clusterArgs("couchbase", "durable", { instanceType: "i4i.xlarge", replication: 2 }));
    userData.forEach(bashSyntax);
    expect(userData[0]).toContain("cluster-init");
    expect(userData[0]).toContain("--cluster-ramsize 24576");
    expect(userData[0]).toMatch(/bucket-create .*'--bucket-eviction-policy' 'fullEviction'.*'--bucket-replica' '1'|'--bucket-replica' '1'.*'fullEviction'/);
    expect(userData[0]).toContain("rebalance");
    expect(userData[1]).toContain("--server-add '10.42.1.11'");
    expect(userData[1]).not.toContain("couchbase-cli cluster-init");
    for (const s of userData) expect(s).not.toMatch(/curl[^\n]* -p /);
    expect(instances[0]!.inputs.ebsBlockDevices).toEqual([]);
    // The password only ever comes from SSM at boot: every couchbase-cli -p is the variable (or unused before init).
    for (const s of userData) for (const m of s.matchAll(/couchbase-cli [^\n]* -p (\S+)/g)) expect(m[1]).toMatch(/^(unused|"\$CB_PASSWORD")$/);
  });

  it("HBase: namenode, ZooKeeper and master on node 0, datanode and region server everywhere; XML parses; preset sets hsync", async () => {
    const parser = new XMLParser({ isArray: (name) => name === "property" });
    const byPreset: Record<string, Record<string, string>> = {};
    for (const preset of ["throughput", "durable"] as const) {
      reset();
      const { userData } = await buildCluster(`hb-${preset}`, clusterArgs("hbase", preset, { replication: 2 }));
      userData.forEach(bashSyntax);
      const files = heredocFiles(userData[1]!);
      for (const path of ["/etc/hadoop/core-site.xml", "/etc/hadoop/hdfs-site.xml", "/etc/hbase/hbase-site.xml"]) {
        expect(XMLValidator.validate(files.get(path)!)).toBe(true);
      }
      const props = (xml: string) => Object.fromEntries((parser.parse(xml).configuration.property as Array<{ name: string; value: string | number | boolean }>).map((p) => [p.name, String(p.value)]));
      byPreset[preset] = { ...props(files.get("/etc/hadoop/core-site.xml")!), ...props(files.get("/etc/hadoop/hdfs-site.xml")!), ...props(files.get("/etc/hbase/hbase-site.xml")!) };
      expect(userData[0]).toContain("hdfs-namenode.service");
      expect(userData[1]).not.toContain("hdfs-namenode.service");
      expect(userData[0]).toMatch(/create 'usertable'.*SPLITS => \[/);
    }
    expect(byPreset.durable!["hbase.wal.hsync"]).toBe("true");
    expect(byPreset.throughput!["hbase.wal.hsync"]).toBe("false");
    expect(byPreset.durable!["fs.defaultFS"]).toBe("hdfs://10.42.1.10:8020");
    expect(byPreset.durable!["hbase.rootdir"]).toBe("hdfs://10.42.1.10:8020/hbase");
    expect(byPreset.durable!["dfs.replication"]).toBe("2");
  });

  it("applies seed 002's OS tuning at every boot and mounts data with noatime", async () => {
    const { userData } = await buildCluster("tune", clusterArgs("cassandra", "durable", { nodeIps: ["10.42.1.10"] }));
    const files = heredocFiles(userData[0]!);
    const tuning = files.get("/usr/local/sbin/ycsb-lab-tuning")!;
    expect(tuning).toContain("echo none >");
    expect(tuning).toContain("blockdev --setra 8");
    expect(tuning).toContain("echo never >");
    expect(tuning).toContain("sysctl -w vm.swappiness=1");
    expect(files.get("/etc/security/limits.d/90-ycsb-lab.conf")).toContain("* - nofile 100000");
    expect(files.get("/etc/systemd/system/ycsb-lab-tuning.service")).toContain("WantedBy=multi-user.target");
    expect(userData[0]).toContain("defaults,noatime,nofail");
    expect(userData[0]).not.toContain("barrier=0");
  });

  it("EBS data storage attaches an encrypted volume of the asked type, size and IOPS", async () => {
    const { instances } = await buildCluster("ebs", clusterArgs("hbase", "balanced", { instanceType: "c6i.2xlarge", storage: { kind: "ebs", ebsType: "gp3", sizeGiB: 500, iops: 6000 } }));
    expect(instances[0]!.inputs.ebsBlockDevices).toEqual([expect.objectContaining({ deviceName: "/dev/sdf", volumeType: "gp3", volumeSize: 500, iops: 6000, encrypted: true })]);
  });

  it.each([
    ["engine", { engine: "redis" as Engine }, /engine: unknown engine "redis"/],
    ["nodes", { nodeIps: [] }, /nodes: a cluster needs at least 1 node/],
    ["replication", { replication: 4 }, /replication: 1\.\.nodes \(3\)/],
    ["instance store", { instanceType: "c6i.xlarge" }, /storage: c6i\.xlarge has no instance store/],
    ["retired type", { instanceType: "m1.xlarge" }, /instanceType: m1\.xlarge is retired; use m5d\.xlarge/],
    ["mongo topology on cassandra", { mongoTopology: "sharded" as const }, /mongoTopology: only for mongodb/],
  ])("rejects a bad %s before creating anything", (_, over, message) => {
    expect(() => new DatabaseCluster("bad", clusterArgs("cassandra", "balanced", over as Partial<DatabaseClusterArgs>))).toThrow(message);
    expect(recorded).toEqual([]);
  });
});

describe("ClientFleet", () => {
  it("sizes the fleet from the data-node ratio and scopes its role to the run's prefix", async () => {
    const fleet = new ClientFleet("fleet", {
      clients: { dataNodesPerClient: 3, dataNodes: 8 },
      clientIps: addressing(8, 3).clientIps,
      instanceType: "m5.xlarge",
      threadsPerClient: 341,
      subnetId: "subnet-c",
      securityGroupId: "sg-c",
      resultsBucketName: "results-bucket",
      runId: "run-7",
      region: "us-east-1",
      runner: { repository: "https://example.org/ycsb-lab.git", ref: "v0.1.0" },
    });
    await Promise.all(fleet.instanceIds.map(value));
    await settle();
    expect(fleet.count).toBe(3);
    const instances = ofType("aws:ec2/instance:Instance");
    expect(instances).toHaveLength(3);
    const policy = JSON.parse(ofType("aws:iam/rolePolicy:RolePolicy")[0]!.inputs.policy);
    const writes = policy.Statement.filter((s: any) => s.Action.some((a: string) => /Put|Delete|Abort/.test(a)));
    expect(writes.flatMap((s: any) => s.Resource)).toEqual(["arn:aws:s3:::results-bucket/runs/run-7/*"]);
    expect(policy.Statement.find((s: any) => s.Action.includes("s3:ListBucket")).Condition).toEqual({ StringLike: { "s3:prefix": ["runs/run-7/*"] } });
    expect(JSON.stringify(policy)).not.toMatch(/"s3:\*"|"Resource":\["\*"\]/);
    const ud = instances[2]!.inputs.userData as string;
    bashSyntax(ud);
    expect(ud).toContain("ExecStart=/usr/local/bin/node /opt/ycsb-lab/bin/ycsb-lab.js run --plan s3://results-bucket/runs/run-7/plan.json --client-index 2 --clients 3 --results s3://results-bucket/runs/run-7/");
    expect(instances[2]!.inputs.metadataOptions).toMatchObject({ httpTokens: "required" });
    expect(instances[2]!.inputs.tags["ycsb-lab:threads-per-client"]).toBe("341");
  });

  it("rejects a runner that is not an https repository before creating anything", () => {
    expect(
      () =>
        new ClientFleet("badfleet", {
          clients: { count: 1 },
          clientIps: ["10.42.2.10"],
          instanceType: "c6i.large",
          threadsPerClient: 1,
          subnetId: "s",
          securityGroupId: "g",
          resultsBucketName: "b",
          runId: "r",
          region: "us-east-1",
          runner: { repository: "git@github.com:x/y.git", ref: "main" },
        }),
    ).toThrow(/runner\.repository/);
    expect(recorded).toEqual([]);
  });
});
