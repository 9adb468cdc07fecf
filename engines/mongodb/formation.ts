import { presetFor, type Preset } from "../../model/presets.js";
import { writeReadyMarker, systemdUnit } from "../common-install.js";
import type { EngineKit, NodeContext } from "../node-context.js";
import { q, section, waitFor, writeFile } from "../shell.js";
import { renderMongodConfig } from "./config.js";
import { installMongo } from "./install.js";
import { mongoShardingCommands, renderMongoShardingScript } from "./schema.js";
import { CONFIG_REPLICA_SET, CONFIG_SERVER_PORT, MONGOS_PORT, mongoProcesses, shardMembers, shardName, type MongoProcess } from "./topology.js";

/** mongod.conf of one process: the engine engineer's renderer, with the config-server role added for `cfg`. */
export function mongodConf(ctx: NodeContext, p: MongoProcess): string {
  const conf = renderMongodConfig(ctx.preset, {
    dbPath: `${ctx.dataDir}/mongodb/${p.name}`,
    port: p.port,
    bindIp: "0.0.0.0",
    shardServer: p.role !== "configsvr",
    replicaSet: p.replicaSet,
  }).yaml.replace('path: "/var/log/mongodb/mongod.log"', `path: "/var/log/mongodb/${p.name}.log"`);
  return p.role === "configsvr" ? `${conf}sharding:\n  clusterRole: configsvr\n` : conf;
}

export function mongosConf(ctx: NodeContext): string {
  return [
    "net:",
    `  port: ${MONGOS_PORT}`,
    '  bindIp: "0.0.0.0"',
    "sharding:",
    `  configDB: "${CONFIG_REPLICA_SET}/${ctx.nodeIps[0]}:${CONFIG_SERVER_PORT}"`,
    "systemLog:",
    "  destination: file",
    '  path: "/var/log/mongodb/mongos.log"',
    "  logAppend: true",
    "",
  ].join("\n");
}

/** The rs.initiate documents the leader runs: the config server and every shard. */
export function replicaSetInitiations(ctx: NodeContext): Array<{ host: string; config: Record<string, unknown> }> {
  const n = ctx.nodeIps.length;
  const out: Array<{ host: string; config: Record<string, unknown> }> = [
    { host: `${ctx.nodeIps[0]}:${CONFIG_SERVER_PORT}`, config: { _id: CONFIG_REPLICA_SET, configsvr: true, members: [{ _id: 0, host: `${ctx.nodeIps[0]}:${CONFIG_SERVER_PORT}` }] } },
  ];
  for (let k = 0; k < n; k++) {
    const members = shardMembers(ctx.mongoTopology, n, ctx.replication, k).map((m, i) => ({
      _id: i,
      host: `${ctx.nodeIps[m.node]}:${m.port}`,
      ...(m.role === "arbiter" ? { arbiterOnly: true } : {}),
      // The primary of shard k stays on node k, so every node leads exactly one shard (seed 002 appendix D).
      ...(m.role === "shard-primary" ? { priority: 2 } : m.role === "shard-secondary" ? { priority: 1 } : {}),
    }));
    out.push({ host: members[0]!.host, config: { _id: shardName(k), members } });
  }
  return out;
}

const mongosh = (hostPort: string, js: string) => `mongosh --quiet --host ${q(hostPort)} --eval ${q(js)}`;

export const mongoKit: EngineKit = {
  engine: "mongodb",
  ports: {
    client: [{ from: MONGOS_PORT, to: MONGOS_PORT, description: "mongos" }],
    cluster: [{ from: 27017, to: 27030, description: "mongod, mongos, config server, shard members" }],
  },
  wantsLogVolume: (preset: Preset) => presetFor("mongodb", preset).server.journalOwnVolume,
  install: (ctx) => installMongo(ctx.version),
  roles: (ctx) => mongoProcesses(ctx.mongoTopology, ctx.nodeIps.length, ctx.replication, ctx.index).map((p) => p.role),
  configure(ctx) {
    const steps: string[] = ["id mongodb >/dev/null 2>&1 || useradd --system --shell /usr/sbin/nologin mongodb", "mkdir -p /var/log/mongodb /etc/mongodb"];
    for (const p of mongoProcesses(ctx.mongoTopology, ctx.nodeIps.length, ctx.replication, ctx.index)) {
      const confPath = `/etc/mongodb/${p.name}.conf`;
      if (p.kind === "mongod") {
        const dbPath = `${ctx.dataDir}/mongodb/${p.name}`;
        steps.push(writeFile(confPath, mongodConf(ctx, p)), `mkdir -p ${q(dbPath)}`);
        // Seed 004 / seed 002 MongoDB section 1: the journal on its own device (mongod keeps it in <dbPath>/journal).
        if (ctx.logDir && p.role !== "arbiter") steps.push(`mkdir -p ${q(`${ctx.logDir}/mongodb/${p.name}`)}`, `ln -sfn ${q(`${ctx.logDir}/mongodb/${p.name}`)} ${q(`${dbPath}/journal`)}`);
        steps.push(writeFile(`/etc/systemd/system/mongod-${p.name}.service`, systemdUnit({ description: `mongod ${p.name}`, user: "mongodb", exec: `/usr/bin/mongod --config ${confPath}` })));
      } else {
        steps.push(writeFile(confPath, mongosConf(ctx)), writeFile(`/etc/systemd/system/mongos.service`, systemdUnit({ description: "mongos", user: "mongodb", exec: `/usr/bin/mongos --config ${confPath}` })));
      }
    }
    steps.push(
      `chown -R mongodb:mongodb /var/log/mongodb ${q(`${ctx.dataDir}/mongodb`)}${ctx.logDir ? ` ${q(`${ctx.logDir}/mongodb`)}` : ""}`,
      "systemctl daemon-reload",
      ...mongoProcesses(ctx.mongoTopology, ctx.nodeIps.length, ctx.replication, ctx.index).map((p) => `systemctl enable --now ${p.kind === "mongos" ? "mongos" : `mongod-${p.name}`}.service`),
    );
    return steps.join("\n");
  },
  // Study settings are applied only where a renderer takes them (Cassandra today): never ignored silently.
  checkServerSettings: (settings) => Object.keys(settings).map((k) => `"${k}" is not applied for this engine`),
  readinessProbe: (ctx) =>
    `[ "$(${mongosh(`${ctx.nodeIps[0]}:${MONGOS_PORT}`, 'db.getSiblingDB("config").shards.countDocuments({state: 1})')} 2>/dev/null)" = "${ctx.nodeIps.length}" ]`,
  formCluster(ctx) {
    const initiations = replicaSetInitiations(ctx);
    const waits = initiations.map((i) => waitFor(`mongod ${i.host}`, mongosh(i.host, "db.adminCommand({ping: 1}).ok") + " >/dev/null 2>&1", 1800)).join("\n");
    const initiate = initiations.map((i) => `${mongosh(i.host, `rs.initiate(${JSON.stringify(i.config)})`)} || true`).join("\n");
    const addShards = initiations
      .slice(1)
      .map((i) => {
        const cfg = i.config as { _id: string; members: Array<{ host: string; arbiterOnly?: boolean }> };
        const hosts = cfg.members.filter((m) => !m.arbiterOnly).map((m) => m.host).join(",");
        return mongosh(`${ctx.nodeIps[0]}:${MONGOS_PORT}`, `sh.addShard(${JSON.stringify(`${cfg._id}/${hosts}`)})`);
      })
      .join("\n");
    const shards = ctx.nodeIps.map((_, k) => shardName(k));
    return [
      section("wait for every mongod", waits),
      section("initiate replica sets", initiate),
      section("wait for mongos", waitFor("mongos", mongosh(`${ctx.nodeIps[0]}:${MONGOS_PORT}`, "db.adminCommand({ping: 1}).ok") + " >/dev/null 2>&1", 1800)),
      section("add shards", addShards),
      section("wait for all shards", waitFor("all shards", mongoKit.readinessProbe(ctx), 1800)),
      section(
        "shard and pre-split usertable (seed 000)",
        [writeFile("/tmp/ycsb-sharding.js", renderMongoShardingScript(mongoShardingCommands(shards))), `mongosh --quiet --host ${q(`${ctx.nodeIps[0]}:${MONGOS_PORT}`)} --file /tmp/ycsb-sharding.js`].join("\n"),
      ),
      writeReadyMarker(ctx.readyMarkerUrl, { engine: "mongodb", nodes: ctx.nodeIps.length, topology: ctx.mongoTopology, preset: ctx.preset }),
    ].join("\n");
  },
};
