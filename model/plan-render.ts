import type { Plan, PlanPhase } from "./plan.js";

/** A readable table of a plan: one line per phase, what decides it at run time spelled out. */
export function renderPlanTable(plan: Plan): string {
  const d = plan.deployment;
  const head =
    `scenario ${plan.scenario}: ${d.engine}, ${d.nodes} node(s), preset ${d.preset} (load: ${d.loadPreset}), ` +
    `${d.clients} client(s), ${d.recordCount} records of ${d.recordBytes} B, scale ${d.scale}\n`;
  const rows = plan.phases.map((p) => [
    String(p.index),
    p.name,
    p.kind,
    p.workload ?? "",
    p.kind === "prepare" || p.kind === "settle" ? "" : String(p.threadsPerClient),
    p.operationCount === undefined ? (p.kind === "load" ? String(d.recordCount) : "") : String(p.operationCount),
    p.maxExecutionTimeSec ? `${p.maxExecutionTimeSec}s` : "",
    p.target === undefined ? "" : String(p.target),
    note(p),
  ]);
  const header = ["#", "phase", "kind", "workload", "threads/client", "ops (total)", "time cap", "target", "notes"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return [head, line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}

function note(p: PlanPhase): string {
  const parts: string[] = [];
  if (p.clientsActive !== "all") parts.push(`client ${p.clientsActive.join(",")} only`);
  if (p.kind === "load") {
    const split = p.perClient.map((c) => `${c.insertstart}+${c.insertcount}`);
    parts.push(`split: ${split.length > 4 ? `${split.slice(0, 2).join(" ")} ... ${split.at(-1)}` : split.join(" ")}`);
  }
  if (p.settle) parts.push(p.settle.waitForCompactions ? "wait for compactions" : `wait ${p.settle.minSec}s`);
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
