import { spawn } from "node:child_process";
import { join } from "node:path";
import { hbaseConnectionProperties } from "../../../engines/hbase/binding.js";
import { HBASE_PORTS, usertableSpec } from "../../../engines/hbase/cluster-config.js";
import type { HBaseTableSpec } from "../../../engines/hbase/schema.js";
import { bindingClasspathDir } from "../../java-artifacts.js";
import type { Formation } from "./types.js";

export const HBASE_SCHEMA_TOOL = "io.ycsblab.bindings.hbase.HBaseSchemaTool";

/** The tool's command line (pure): wait for `servers` region servers, then the table of `spec`. */
export function schemaToolArgs(o: {
  bindingDir: string;
  quorum: string;
  servers: number;
  timeoutSec: number;
  table: HBaseTableSpec;
}): string[] {
  const t = o.table;
  return [
    "-Xmx256m",
    "-Dlog4j.configuration=ycsblab-hbase-tool-log4j.properties",
    "-cp",
    join(o.bindingDir, "*"),
    HBASE_SCHEMA_TOOL,
    "--quorum",
    o.quorum,
    "--port",
    String(HBASE_PORTS.zookeeper),
    "--servers",
    String(o.servers),
    "--timeout-sec",
    String(o.timeoutSec),
    "--table",
    t.table,
    "--family",
    t.family,
    "--durability",
    t.durability,
    "--compression",
    t.compression,
    ...t.splits.flatMap((s) => ["--split", s]),
  ];
}

interface ToolStep {
  step: "servers" | "table" | "ready";
  live?: number;
  expected?: number;
  servers?: string[];
  table?: string;
  created?: boolean;
  regions?: number;
  durability?: string;
}

/**
 * HBase (seed 000): ready when every region server is live in the master's view; the pre-split usertable
 * (engines/hbase/cluster-config.ts: 10 regions per server or a study's own split, the preset's table durability) created with HBase's client API by
 * our tool in the binding's module, which the kit carries: no hbase shell, no JRuby on the instance.
 */
export const formHBase: Formation = async ({ ctx, log, timeoutMs }) => {
  const n = ctx.nodeIps.length;
  const table = usertableSpec(ctx);
  const args = schemaToolArgs({
    bindingDir: await bindingClasspathDir("hbase"),
    quorum: ctx.nodeIps[0]!,
    servers: n,
    timeoutSec: Math.ceil(timeoutMs / 1000),
    table,
  });
  const steps: ToolStep[] = await new Promise((resolve, reject) => {
    const child = spawn("java", args, { stdio: ["ignore", "pipe", "pipe"] });
    const found: ToolStep[] = [];
    let err = "";
    let pending = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines.filter((l) => l.startsWith("{"))) {
        const step = JSON.parse(line) as ToolStep;
        found.push(step);
        if (step.step === "servers")
          log(`region servers live: ${step.live} of ${step.expected} (${(step.servers ?? []).join(", ")})`);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err = (err + c).slice(-8000)));
    child.once("error", (e) => reject(new Error(`hbase schema tool: cannot start java: ${e.message}`)));
    child.once("close", (code) =>
      code === 0
        ? resolve(found)
        : reject(new Error(`hbase schema tool failed (exit ${code}): ${err.trim().split("\n").slice(-8).join("\n")}`)),
    );
  });
  const created = steps.find((s) => s.step === "table");
  const servers = [...steps].reverse().find((s) => s.step === "servers");
  return {
    engine: "hbase",
    nodes: n,
    preset: ctx.preset,
    connection: hbaseConnectionProperties({ zookeeperQuorum: ctx.nodeIps[0]!, zookeeperPort: HBASE_PORTS.zookeeper }),
    steps: [
      `${servers?.live ?? n} region server(s) live: ${(servers?.servers ?? []).join(", ")}`,
      `${table.table} ${created?.created ? "created" : "found"}: ${created?.regions ?? table.splits.length + 1} regions, durability ${created?.durability ?? table.durability}, family ${table.family} (${table.compression})`,
    ],
  };
};
