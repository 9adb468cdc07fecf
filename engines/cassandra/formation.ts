import { presetFor, type Preset } from "../../model/presets.js";
import { writeReadyMarker } from "../common-install.js";
import type { EngineKit, NodeContext } from "../node-context.js";
import { q, section, waitFor, writeFile } from "../shell.js";
import { renderCassandraYaml } from "./config.js";
import { renderCassandraSchema } from "./schema.js";
import { installCassandra } from "./install.js";

/** Seeds: the first three nodes (Cassandra docs: 2-3 seeds per datacenter); seed 000 used the first node only. */
export function cassandraSeeds(nodeIps: string[]): string[] {
  return nodeIps.slice(0, 3);
}

/** The Cassandra engineer's cassandra.yaml (proven by a local server), plus the study's own server settings (seed 003). */
export function cassandraYaml(ctx: NodeContext): string {
  const logDir = ctx.logDir ?? ctx.dataDir;
  const ip = ctx.nodeIps[ctx.index]!;
  const base = renderCassandraYaml({
    clusterName: `ycsb-lab-${ctx.runId}`,
    seeds: cassandraSeeds(ctx.nodeIps),
    listenAddress: ip,
    rpcAddress: ip,
    dataDir: `${ctx.dataDir}/cassandra/data`,
    commitlogDir: `${logDir}/cassandra/commitlog`,
    hintsDir: `${ctx.dataDir}/cassandra/hints`,
    savedCachesDir: `${ctx.dataDir}/cassandra/saved_caches`,
    preset: ctx.preset,
    ...(ctx.study?.cassandra ? { study: ctx.study.cassandra } : {}),
  });
  const extra = Object.entries(ctx.serverSettings);
  for (const [key] of extra) {
    if (!/^[a-z_]+$/.test(key)) throw new Error(`serverSettings.cassandra: "${key}" is not a cassandra.yaml key`);
    // The preset owns the commitlog and the renderer the layout: a study setting may not silently override either.
    if (new RegExp(`^${key}:`, "m").test(base)) throw new Error(`serverSettings.cassandra: "${key}" is already set by the renderer`);
  }
  return base + extra.map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`).join("");
}

/** The YCSB keyspace and table (engines/cassandra/schema.ts), durable_writes per preset (seed 004). */
export function cassandraSchemaCql(ctx: NodeContext): string {
  return renderCassandraSchema({ preset: ctx.preset, replicationFactor: ctx.replication, fieldCount: ctx.fieldCount, ...(ctx.study?.cassandra ? { study: ctx.study.cassandra } : {}) });
}

/** Study settings are checked by rendering them into a cassandra.yaml (the renderer refuses what it cannot take). */
export function checkCassandraServerSettings(settings: Record<string, string>): string[] {
  const probe: NodeContext = {
    engine: "cassandra", version: "", preset: "balanced", loadPreset: "balanced", nodeIps: ["127.0.0.1"], index: 0, replication: 1, recordCount: 1, fieldCount: 1,
    runId: "check", region: "", readyMarkerUrl: "", adminPasswordParameter: "", memoryGiB: 1, vcpus: 1, dataDir: "/data", mongoTopology: "sharded", serverSettings: settings,
  };
  try {
    cassandraYaml(probe);
    return [];
  } catch (e) {
    return [(e as Error).message.replace(/^serverSettings\.cassandra: /, "")];
  }
}

const nodetool = "/opt/cassandra/bin/nodetool";

export const cassandraKit: EngineKit = {
  engine: "cassandra",
  ports: {
    client: [{ from: 9042, to: 9042, description: "CQL native transport" }],
    cluster: [
      { from: 7000, to: 7000, description: "Cassandra inter-node" },
      { from: 9042, to: 9042, description: "CQL between nodes (leader prepares the schema)" },
    ],
  },
  wantsLogVolume: (preset: Preset) => presetFor("cassandra", preset).server.commitlogOwnVolume,
  install: (ctx) => installCassandra(ctx.version),
  roles: (ctx) => (cassandraSeeds(ctx.nodeIps).includes(ctx.nodeIps[ctx.index]!) ? ["cassandra", "seed"] : ["cassandra"]),
  configure(ctx) {
    const logDir = ctx.logDir ?? ctx.dataDir;
    const previous = ctx.index > 0 ? ctx.nodeIps[ctx.index - 1] : undefined;
    return [
      writeFile("/etc/cassandra/cassandra.yaml", cassandraYaml(ctx)),
      "cp -n /opt/cassandra/conf/* /etc/cassandra/ || true",
      `mkdir -p ${q(`${ctx.dataDir}/cassandra`)} ${q(`${logDir}/cassandra/commitlog`)}`,
      `chown -R cassandra:cassandra /etc/cassandra ${q(`${ctx.dataDir}/cassandra`)} ${q(`${logDir}/cassandra`)}`,
      // Nodes join one at a time: native transport opens only after a node has joined the ring.
      previous ? waitFor(`node ${ctx.index - 1} to join`, `nc -z ${q(previous)} 9042`, 3600) : "",
      "systemctl daemon-reload",
      "systemctl enable --now cassandra.service",
    ]
      .filter(Boolean)
      .join("\n");
  },
  checkServerSettings: checkCassandraServerSettings,
  readinessProbe: (ctx) => `[ "$(${nodetool} status 2>/dev/null | grep -c '^UN')" -ge ${ctx.nodeIps.length} ]`,
  formCluster(ctx) {
    return [
      section("wait for all nodes Up/Normal", waitFor("all Cassandra nodes UN", cassandraKit.readinessProbe(ctx), 3600)),
      section(
        "schema",
        [writeFile("/tmp/ycsb-schema.cql", cassandraSchemaCql(ctx)), `/opt/cassandra/bin/cqlsh ${q(ctx.nodeIps[0]!)} -f /tmp/ycsb-schema.cql`].join("\n"),
      ),
      writeReadyMarker(ctx.readyMarkerUrl, { engine: "cassandra", nodes: ctx.nodeIps.length, preset: ctx.preset }),
    ].join("\n");
  },
};
