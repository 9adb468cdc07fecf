import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { splitYcsbArgs } from "../../../cli/commands/ycsb.js";
import {
  type CassandraNodeConfig,
  cassandraReadiness,
  cassandraSchemaStatements,
  commitlogSettings,
  type GossipRow,
  gossipState,
  renderCassandraSchema,
  renderCassandraYaml,
} from "../../../engines/cassandra/index.js";
import { cassandraHeapMb, cassandraNodeCommand, renderLogbackXml } from "../../../engines/cassandra/jvm.js";
import { DURABILITY_PRESETS, PRESETS } from "../../../model/presets.js";
import { buildYcsbCommand, ycsbClasspath } from "../../../runner/ycsb-process.js";

const node = (over: Partial<CassandraNodeConfig> = {}): CassandraNodeConfig => ({
  clusterName: "bench",
  seeds: ["10.0.1.10", "10.0.1.11"],
  listenAddress: "10.0.1.12",
  rpcAddress: "10.0.1.12",
  dataDir: "/mnt/data/cassandra",
  commitlogDir: "/mnt/commitlog",
  hintsDir: "/mnt/data/hints",
  savedCachesDir: "/mnt/data/saved_caches",
  preset: "balanced",
  ...over,
});

describe("renderCassandraYaml", () => {
  it.each(PRESETS)("renders valid YAML whose commitlog settings follow the %s preset", (preset) => {
    const doc = parse(renderCassandraYaml(node({ preset }))) as Record<string, unknown>;
    const server = DURABILITY_PRESETS.cassandra[preset].server;
    expect(doc.commitlog_sync).toBe(server.commitlogSync);
    if (server.commitlogSync === "periodic")
      expect(doc.commitlog_sync_period).toBe(`${server.commitlogSyncPeriodMs}ms`);
    else expect(doc).not.toHaveProperty("commitlog_sync_period");
    // 5.0 deprecates the batch window; a rendered one would be ignored with a warning.
    expect(doc).not.toHaveProperty("commitlog_sync_batch_window_in_ms");
  });

  it("puts addresses, seeds and directories where Cassandra reads them", () => {
    const doc = parse(
      renderCassandraYaml(node({ concurrentWrites: 64, numTokens: 8, cdcDir: "/mnt/cdc", nativeTransportPort: 19042 })),
    ) as any;
    expect(doc.seed_provider[0].class_name).toBe("org.apache.cassandra.locator.SimpleSeedProvider");
    expect(doc.seed_provider[0].parameters[0].seeds).toBe("10.0.1.10,10.0.1.11");
    expect(doc.listen_address).toBe("10.0.1.12");
    expect(doc.data_file_directories).toEqual(["/mnt/data/cassandra"]);
    expect(doc.commitlog_directory).toBe("/mnt/commitlog");
    expect(doc.cdc_raw_directory).toBe("/mnt/cdc");
    expect(doc.concurrent_writes).toBe(64);
    expect(doc.num_tokens).toBe(8);
    expect(doc.native_transport_port).toBe(19042);
    expect(doc.endpoint_snitch).toBe("SimpleSnitch");
  });

  it("quotes values so a cluster name with YAML syntax stays one string", () => {
    const doc = parse(renderCassandraYaml(node({ clusterName: "a: b # c" }))) as any;
    expect(doc.cluster_name).toBe("a: b # c");
  });

  it.each([
    [{ seeds: [] }, /seeds must name at least one/],
    [{ seeds: ["a b"] }, /seeds\[0\] is not an address/],
    [{ dataDir: "data" }, /dataDir must be an absolute path/],
    [{ storagePort: 70000 }, /storagePort must be a TCP port/],
    [{ concurrentWrites: 0 }, /concurrentWrites must be a positive integer/],
    [{ endpointSnitch: "x; rm" }, /endpointSnitch is not a class name/],
  ] as const)("rejects %o naming the field", (over, message) => {
    expect(() => renderCassandraYaml(node(over as Partial<CassandraNodeConfig>))).toThrow(message);
  });

  it("maps a group preset window (model allows it) to commitlog_sync_group_window", () => {
    expect(commitlogSettings("durable")).toEqual({ commitlog_sync: "batch" });
    expect(commitlogSettings("throughput")).toEqual({ commitlog_sync: "periodic", commitlog_sync_period: "10000ms" });
  });
});

describe("cassandraSchemaStatements", () => {
  it.each(PRESETS)("sets durable_writes from the %s preset on create and on alter", (preset) => {
    const want = String(DURABILITY_PRESETS.cassandra[preset].server.durableWrites);
    const [create, alter, table] = cassandraSchemaStatements({ preset, replicationFactor: 3 });
    expect(create).toContain(`durable_writes = ${want}`);
    expect(alter).toMatch(new RegExp(`^ALTER KEYSPACE ycsb .*durable_writes = ${want}$`));
    expect(table).toContain("y_id varchar PRIMARY KEY");
  });

  it("creates seed 000's usertable: y_id and fieldcount blob columns, compression off", () => {
    const table = cassandraSchemaStatements({ preset: "durable", replicationFactor: 1, fieldCount: 3 })[2]!;
    expect(table).toBe(
      "CREATE TABLE IF NOT EXISTS ycsb.usertable (y_id varchar PRIMARY KEY, field0 blob, field1 blob, field2 blob) WITH compression = {'enabled': 'false'}",
    );
  });

  it("uses NetworkTopologyStrategy when a datacenter is named", () => {
    const [create] = cassandraSchemaStatements({ preset: "balanced", replicationFactor: 2, datacenter: "us-east" });
    expect(create).toContain("{'class': 'NetworkTopologyStrategy', 'us-east': 2}");
  });

  it("rejects names that would need quoting and bad counts", () => {
    expect(() => cassandraSchemaStatements({ preset: "balanced", replicationFactor: 0 })).toThrow(/replicationFactor/);
    expect(() => cassandraSchemaStatements({ preset: "balanced", replicationFactor: 1, keyspace: "Y-csb" })).toThrow(
      /keyspace/,
    );
    expect(() => cassandraSchemaStatements({ preset: "balanced", replicationFactor: 1, fieldCount: 0 })).toThrow(
      /fieldCount/,
    );
  });

  it("renders a script with one statement per line ending in ;", () => {
    const script = renderCassandraSchema({ preset: "balanced", replicationFactor: 1 });
    expect(script.trim().split("\n")).toHaveLength(3);
    expect(
      script
        .trim()
        .split("\n")
        .every((l) => l.endsWith(";")),
    ).toBe(true);
  });
});

const fixture = (name: string): GossipRow[] =>
  readFileSync(new URL(`../../fixtures/cassandra/${name}`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .map((r) => ({
      node: r._node,
      address: r.address,
      status: r.status,
      status_with_port: r.status_with_port,
      rpc_ready: r.rpc_ready,
      schema: r.schema,
    }));

describe("cassandraReadiness (system_views.gossip_info captured from a real 3-node ring)", () => {
  const nodes = ["127.0.0.1", "127.0.0.2", "127.0.0.3"];

  it("is ready when every node answers and sees every node NORMAL on one schema", () => {
    expect(cassandraReadiness(nodes, fixture("gossip-3-nodes-ready.jsonl"))).toEqual({ ready: true, reasons: [] });
  });

  it("names the stopped node: it does not answer, and the others see it shut down", () => {
    const r = cassandraReadiness(nodes, fixture("gossip-3-nodes-node3-stopped.jsonl"));
    expect(r.ready).toBe(false);
    expect(r.reasons).toEqual([
      "127.0.0.1: sees 127.0.0.3 as shutdown, not NORMAL",
      "127.0.0.2: sees 127.0.0.3 as shutdown, not NORMAL",
      "127.0.0.3: does not answer CQL",
    ]);
  });

  it("is not ready when a node is still joining or unknown to another", () => {
    const rows = fixture("gossip-3-nodes-ready.jsonl").map((r) =>
      r.node === "127.0.0.1" && r.address === "/127.0.0.2"
        ? { ...r, status: "BOOT,123", status_with_port: "BOOT,123" }
        : r,
    );
    expect(cassandraReadiness(nodes, rows).reasons).toEqual(["127.0.0.1: sees 127.0.0.2 as BOOT, not NORMAL"]);
    const fewer = fixture("gossip-3-nodes-ready.jsonl").filter(
      (r) => !(r.node === "127.0.0.2" && r.address === "/127.0.0.3"),
    );
    expect(cassandraReadiness(nodes, fewer).reasons).toEqual(["127.0.0.2: does not know 127.0.0.3 yet"]);
  });

  it("flags schema disagreement and nodes from another ring", () => {
    const rows = fixture("gossip-3-nodes-ready.jsonl").map((r) =>
      r.address === "/127.0.0.3" ? { ...r, schema: "00000000-0000-0000-0000-000000000000" } : r,
    );
    expect(cassandraReadiness(nodes, rows).reasons.join("\n")).toMatch(/schema versions disagree/);
    expect(cassandraReadiness(nodes.slice(0, 2), fixture("gossip-3-nodes-ready.jsonl")).reasons).toContain(
      "127.0.0.1: sees unexpected node 127.0.0.3 (NORMAL)",
    );
  });

  it("reads the state word of a gossip status", () => {
    expect(gossipState("NORMAL,-1017918304969277182")).toBe("NORMAL");
    expect(gossipState(null)).toBe("unknown");
  });
});

describe("buildYcsbCommand", () => {
  const base = {
    dbClass: "io.ycsblab.bindings.cassandra.CassandraDB",
    ycsbCoreDir: "/y/core",
    bindingDirs: ["/b/cassandra"],
  };

  it("puts HdrHistogram first, then core, then the binding (the runner's order), and passes properties in order", () => {
    const cmd = buildYcsbCommand({
      ...base,
      phase: "load",
      hdrHistogramDir: "/y/hdr",
      properties: { a: "1", b: "x=y" },
      threads: 4,
      status: true,
      extraArgs: ["-p", "a=2"],
    });
    const cp = cmd.args[cmd.args.indexOf("-cp") + 1];
    expect(cp).toBe("/y/hdr/*:/y/core/*:/b/cassandra/*");
    expect(cp!.split(":")).toEqual(
      ycsbClasspath({ hdrHistogram: "/y/hdr/*", core: "/y/core/*", bindings: ["/b/cassandra/*"] }),
    );
    const main = cmd.args.indexOf("site.ycsb.Client");
    expect(cmd.args.slice(main + 1)).toEqual([
      "-load",
      "-db",
      base.dbClass,
      "-p",
      "a=1",
      "-p",
      "b=x=y",
      "-threads",
      "4",
      "-s",
      "-p",
      "a=2",
    ]);
  });

  it("runs the transaction phase with -t and a target", () => {
    const args = buildYcsbCommand({ ...base, phase: "run", target: 500 }).args;
    expect(args).toContain("-t");
    expect(args.slice(args.indexOf("-target"), args.indexOf("-target") + 2)).toEqual(["-target", "500"]);
  });

  it("rejects bad threads and property names", () => {
    expect(() => buildYcsbCommand({ ...base, phase: "run", threads: 0 })).toThrow(/threads/);
    expect(() => buildYcsbCommand({ ...base, phase: "run", properties: { "a=b": "c" } })).toThrow(/property name/);
    expect(() => buildYcsbCommand({ ...base, phase: "run", bindingDirs: [] })).toThrow(/binding/);
  });
});

describe("local Cassandra command line and the ycsb command's arguments", () => {
  it("boots CassandraDaemon with the jamm agent, Java 17 opens and the rendered yaml", () => {
    const args = cassandraNodeCommand({
      libDir: "/c/lib",
      jammJar: "/c/lib/jamm-0.4.0.jar",
      yamlFile: "/n/cassandra.yaml",
      logbackFile: "/n/logback.xml",
      dir: "/n",
      heap: "768m",
    });
    expect(args).toContain("-Xmx768m");
    // Cassandra's own ring delay unless asked (the loopback ring of a rehearsal or a local run may settle faster).
    expect(args.some((a) => a.startsWith("-Dcassandra.ring_delay_ms"))).toBe(false);
    expect(
      cassandraNodeCommand({
        libDir: "/c/lib",
        jammJar: "j",
        yamlFile: "y",
        logbackFile: "l",
        dir: "/n",
        heap: "1g",
        ringDelayMs: 1000,
      }),
    ).toContain("-Dcassandra.ring_delay_ms=1000");
    expect(args).toContain("-javaagent:/c/lib/jamm-0.4.0.jar");
    expect(args).toContain("-Dcassandra.config=file:///n/cassandra.yaml");
    expect(args.join(" ")).toContain("--add-opens java.base/java.lang=ALL-UNNAMED");
    expect(args.at(-1)).toBe("org.apache.cassandra.service.CassandraDaemon");
    expect(renderLogbackXml("/n")).toContain("<file>/n/system.log</file>");
  });

  it("sizes the heap as cassandra-env.sh does: max(min(ram/2, 1 GB), min(ram/4, 8 GB))", () => {
    expect(cassandraHeapMb(2)).toBe(1024);
    expect(cassandraHeapMb(8)).toBe(2048);
    expect(cassandraHeapMb(16)).toBe(4096);
    expect(cassandraHeapMb(61)).toBe(8192);
    expect(cassandraHeapMb(1)).toBe(512);
  });

  it("splits -load/-t out of the YCSB arguments and reads fieldcount", () => {
    expect(splitYcsbArgs(["-load", "-p", "fieldcount=3", "-threads", "2"])).toEqual({
      phase: "load",
      rest: ["-p", "fieldcount=3", "-threads", "2"],
      fieldCount: 3,
    });
    expect(splitYcsbArgs(["-s"]).phase).toBe("run");
    expect(() => splitYcsbArgs(["-p", "fieldcount=x"])).toThrow(/fieldcount/);
  });
});
