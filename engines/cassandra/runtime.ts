import { type Preset, presetFor } from "../../model/presets.js";
import { APACHE_ARCHIVE } from "../common-install.js";
import type { NodeContext } from "../node-context.js";
import type { EngineRuntime, NodePaths, NodeTuning } from "../runtime.js";
import { cassandraSeeds, cassandraYaml, checkCassandraServerSettings } from "./formation.js";
import { cassandraHeapMb, cassandraNodeCommand, renderLogbackXml } from "./jvm.js";

export const CQL_PORT = 9042;
export const STORAGE_PORT = 7000;

/** Where the node keeps what: data and hints on the data volume, the commitlog on the log volume (seed 004). */
export function cassandraDirs(paths: NodePaths) {
  return {
    data: `${paths.data}/cassandra/data`,
    hints: `${paths.data}/cassandra/hints`,
    savedCaches: `${paths.data}/cassandra/saved_caches`,
    commitlog: `${paths.log}/cassandra/commitlog`,
    lib: `${paths.install}/cassandra/lib`,
    yaml: `${paths.conf}/cassandra.yaml`,
    logback: `${paths.conf}/logback.xml`,
    logs: `${paths.run}/cassandra`,
  };
}

export function cassandraRuntime(tuning: NodeTuning = {}): EngineRuntime {
  return {
    engine: "cassandra",
    ports: {
      client: [{ from: CQL_PORT, to: CQL_PORT, description: "CQL native transport" }],
      cluster: [
        { from: STORAGE_PORT, to: STORAGE_PORT, description: "Cassandra inter-node" },
        { from: CQL_PORT, to: CQL_PORT, description: "CQL between nodes (the leader prepares the schema)" },
      ],
    },
    wantsLogVolume: (preset: Preset) => presetFor("cassandra", preset).server.commitlogOwnVolume,
    artifacts: (version) => {
      const url = `${APACHE_ARCHIVE}/cassandra/${version}/apache-cassandra-${version}-bin.tar.gz`;
      return [
        {
          name: `apache-cassandra-${version}-bin.tar.gz`,
          url,
          checksumUrl: `${url}.sha512`,
          checksum: "sha512",
          into: "cassandra",
          stripComponents: 1,
        },
      ];
    },
    directories: (_ctx, paths) => {
      const d = cassandraDirs(paths);
      return [d.data, d.hints, d.savedCaches, d.commitlog, d.logs, paths.conf];
    },
    dataDirectories: (_ctx, paths) => {
      const d = cassandraDirs(paths);
      return [d.data, d.hints, d.savedCaches, d.commitlog];
    },
    files: (ctx, paths) => {
      const d = cassandraDirs(paths);
      return [
        {
          path: d.yaml,
          content: cassandraYaml({
            ...ctx,
            dataDir: paths.data,
            ...(paths.log !== paths.data ? { logDir: paths.log } : {}),
          }),
        },
        { path: d.logback, content: renderLogbackXml(d.logs) },
      ];
    },
    processes: (ctx, paths) => {
      const d = cassandraDirs(paths);
      const ip = ctx.nodeIps[ctx.index]!;
      const heapMb = Math.min(cassandraHeapMb(ctx.memoryGiB), tuning.maxHeapMb ?? Number.POSITIVE_INFINITY);
      // Seeds start at once; the others as soon as a seed gossips (tokens are set up front: engines/cassandra/tokens.ts).
      const seeds = cassandraSeeds(ctx.nodeIps);
      const isSeed = seeds.includes(ctx.nodeIps[ctx.index]!);
      return [
        {
          name: "cassandra",
          argv: [
            "java",
            ...cassandraNodeCommand({
              libDir: d.lib,
              // The jamm agent's file name changes with the release; the boot command resolves the one in lib/.
              jammJar: `\${glob:${d.lib}/jamm-*.jar}`,
              yamlFile: d.yaml,
              logbackFile: d.logback,
              dir: d.logs,
              heap: `${heapMb}m`,
              ...(tuning.fastGossip ? { ringDelayMs: 1000 } : {}),
            }),
          ],
          cwd: d.logs,
          listens: [{ host: ip, port: CQL_PORT }],
          ...(isSeed ? {} : { after: [{ host: seeds[0]!, port: STORAGE_PORT, what: "the first seed to gossip" }] }),
        },
      ];
    },
    roles: (ctx: NodeContext) =>
      cassandraSeeds(ctx.nodeIps).includes(ctx.nodeIps[ctx.index]!) ? ["cassandra", "seed"] : ["cassandra"],
    checkServerSettings: checkCassandraServerSettings,
  };
}
