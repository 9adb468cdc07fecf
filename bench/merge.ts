// HDR merge benchmark (DESIGN.md target: 64 clients x 3600 one-second intervals merged no slower than Java
// HdrHistogram 2.1.12 on the same logs). Prints both times, and both counts and p99, which must agree.
//   npx tsx bench/merge.ts [--clients 64 --intervals 3600 --per-interval 5500]
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { argv } from "zx";
import { mergeHdrDirectories } from "../runner/hdr-files.js";
import { javaMakeBenchLogs, javaMerge } from "../tools/hdr-java/java-hdr.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const clients = Number(argv.clients ?? 64);
const intervals = Number(argv.intervals ?? 3600);
// 1.27e9 recordings / (64 x 3600) intervals, the load DESIGN.md measured Java with.
const perInterval = Number(argv["per-interval"] ?? 5500);
for (const [name, v] of Object.entries({ clients, intervals, perInterval })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer, got ${v}`);
}

const dir = join(ROOT, ".cache/bench", `hdr-${clients}x${intervals}x${perInterval}`);
const stamp = join(dir, ".complete");
if (!existsSync(stamp)) {
  console.log(`generating ${clients} logs x ${intervals} intervals with HdrHistogram 2.1.12's HistogramLogWriter ...`);
  const t = performance.now();
  javaMakeBenchLogs(dir, clients, intervals, perInterval);
  writeFileSync(stamp, "");
  console.log(`  done in ${((performance.now() - t) / 1000).toFixed(1)} s (cached in ${dir})`);
}
const dirs = Array.from({ length: clients }, (_, c) => join(dir, `client-${c}`));

const t0 = performance.now();
const ours = await mergeHdrDirectories(dirs, { percentiles: [99] });
const oursMs = performance.now() - t0;

const t1 = performance.now();
const java = javaMerge(
  "2.1.12",
  dirs.map((d) => join(d, "READ.hdr")),
  { percentiles: [99] },
);
const javaWallMs = performance.now() - t1;

const o = ours.operations.READ!;
const j = java.operations.READ!;
const agree = o.count === j.count && o.percentilesUs["99"] === j.percentiles["99"];
console.log(`logs: ${clients} x ${intervals} intervals, ${o.count.toLocaleString("en")} recordings`);
console.log(
  `ycsb-lab merge (read + decode + add): ${(oursMs / 1000).toFixed(2)} s   count ${o.count}  p99 ${o.percentilesUs["99"]} us`,
);
console.log(
  `Java HdrHistogram 2.1.12 (reader + add): ${(java.millis / 1000).toFixed(2)} s  (${(javaWallMs / 1000).toFixed(2)} s with JVM start)   count ${j.count}  p99 ${j.percentiles["99"]} us`,
);
console.log(
  `ratio ours/Java: ${(oursMs / java.millis).toFixed(2)}  ${oursMs <= java.millis ? "(no slower than Java: target met)" : "(SLOWER than Java: target missed)"}`,
);
if (!agree) {
  console.error("count or p99 DISAGREE between ycsb-lab and Java");
  process.exitCode = 1;
}
