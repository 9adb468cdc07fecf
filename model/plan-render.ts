import { insertKeyRange, type Plan, type PlanPhase } from "./plan.js";

/**
 * A readable table of a plan: one line per phase, each client's operation count beside the total, the key ranges
 * each client inserts into, the resets, and what decides a phase at run time spelled out.
 */
export function renderPlanTable(plan: Plan): string {
  const d = plan.deployment;
  const per = plan.phases.find((p) => p.operationCountPer)?.operationCountPer;
  const repeats = Math.max(0, ...plan.phases.map((p) => p.repeat)) + 1;
  const head =
    `scenario ${plan.scenario}: ${d.engine}, ${d.nodes} node(s), preset ${d.preset} (load: ${d.loadPreset}), ` +
    `${d.clients} client(s), ${d.recordCount} records of ${d.recordBytes} B, scale ${d.scale}\n` +
    (per
      ? `operation counts: as the scenario states them ${per === "client" ? "per client (YCSB counts per client)" : "in total, split over the clients"}\n`
      : "") +
    `repeats: ${repeats}\n`;
  const rows = plan.phases.map((p) => {
    const counts = clientOperationCounts(p, d.recordCount);
    return [
      String(p.index),
      p.name,
      p.kind,
      p.workload ?? "",
      p.kind === "prepare" || p.kind === "settle" || p.kind === "reset" ? "" : String(p.threadsPerClient),
      counts ? spread(counts) : "",
      counts ? String(counts.reduce((a, b) => a + b, 0)) : "",
      p.maxExecutionTimeSec ? `${p.maxExecutionTimeSec}s` : "",
      p.target === undefined ? "" : String(p.target),
      note(p),
    ];
  });
  const header = [
    "#",
    "phase",
    "kind",
    "workload",
    "threads/client",
    "ops/client",
    "ops total",
    "time cap",
    "target",
    "notes",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [head, line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}

/** Each client's YCSB operationcount (a load's: its insertcount); undefined for phases bounded by time or running none. */
function clientOperationCounts(p: PlanPhase, recordCount: number): number[] | undefined {
  if (p.kind === "load") return p.perClient.map((c) => Number(c.insertcount ?? recordCount));
  if ((p.kind !== "workload" && p.kind !== "warmup") || p.operationCount === undefined) return undefined;
  return p.perClient.map((c) => Number(c.operationcount ?? p.properties.operationcount));
}

function spread(values: number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? String(min) : `${min}-${max}`;
}

function note(p: PlanPhase): string {
  const parts: string[] = [];
  if (p.clientsActive !== "all") parts.push(`client ${p.clientsActive.join(",")} only`);
  if (p.kind === "load") {
    const split = p.perClient.map((c) => `${c.insertstart}+${c.insertcount}`);
    parts.push(`keys ${split.length > 4 ? `${split.slice(0, 2).join(" ")} ... ${split.at(-1)}` : split.join(" ")}`);
  }
  // Key numbers (before YCSB hashes them) each client's run-phase inserts write: first + step * k.
  const inserts = p.perClient.flatMap((_, i) => {
    const r = insertKeyRange(p, i);
    return r ? [`c${i}:${r.first}${r.step > 1 ? `+${r.step}k` : "+k"}`] : [];
  });
  if (inserts.length > 0)
    parts.push(
      `insert keys ${inserts.length > 3 ? `${inserts[0]} ${inserts[1]} ... ${inserts.at(-1)}` : inserts.join(" ")}`,
    );
  if (p.reset) {
    const asked = [
      p.reset.wipeData ? "wipe data" : "",
      p.reset.restartServer ? "restart server" : "",
      p.reset.dropCaches ? "drop caches" : "",
    ]
      .filter(Boolean)
      .join(", ");
    parts.push(`${asked} (${p.reset.source})`);
  }
  if (p.settle) {
    const waits = [
      p.settle.waitForCompactions ? "wait for compactions" : "",
      p.settle.waitForRebalance ? "wait for rebalancing" : "",
    ].filter(Boolean);
    parts.push(waits.length ? waits.join(", ") : `wait ${p.settle.minSec}s`);
  }
  if (p.warmupSec) parts.push(`warm-up ${p.warmupSec}s in this YCSB process, unmeasured`);
  if (p.discard) parts.push("discarded");
  if (p.stepUp) {
    parts.push(
      p.stepUp.step === 0
        ? `step-up ${p.stepUp.group}: first step`
        : p.stepUp.step === 1
          ? `step-up ${p.stepUp.group}: always tried after the first step`
          : `step-up ${p.stepUp.group}: runs only if step ${p.stepUp.step - 1} beat the earlier steps by >= ${p.stepUp.minGainPct}%`,
    );
  }
  if (p.repeat > 0) parts.push(`repeat ${p.repeat}`);
  return parts.join("; ");
}
