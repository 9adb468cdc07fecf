import type { CapacityLadderStep, CapacityPrice, CapacityResult } from "./capacity-result.js";

/**
 * A finished capacity search in a console's words (`ycsb-lab local run`, `npm start -- --capacity`): why it ended, the
 * sustainable throughput, the step that broke and why, the price (or why none), then the ladder step by step. Pure.
 */
export function capacityReportLines(r: CapacityResult, endedBecause: string): string[] {
  const slo = `${r.slo.operations.join(",")} p${r.slo.percentile} < ${r.slo.limitMs} ms, errors <= ${r.slo.errorBudgetPct} %`;
  const held = r.steps.find((s) => s.step === r.heldStep);
  return [
    `capacity ${r.group} (${slo}): search ended: ${endedBecause}`,
    held
      ? `  sustainable: ${ops(r.sustainableOpsSec)} (step ${held.step}, target ${ops(held.target)})`
      : "  sustainable: 0 ops/s (no step held the SLO)",
    r.broke
      ? `  broke: step ${r.broke.step} at target ${ops(r.broke.target)}: ${r.broke.breaches.join("; ")}`
      : "  broke: no step above the sustainable one broke",
    `  price: ${priceText(r.price)}`,
    ...r.steps.map((s) => `  ${stepText(s, r.slo.percentile)}`),
  ];
}

function ops(v: number | null): string {
  return v === null ? "none (unthrottled)" : `${Math.round(v)} ops/s`;
}

function priceText(p: CapacityPrice): string {
  if (!p.priced) return p.statement;
  const perf =
    p.usdPerMillionOps === null || p.opsPerSecPerUsdHour === null
      ? "no price-performance (nothing sustained)"
      : `${Math.round(p.opsPerSecPerUsdHour)} ops/s per $/h, $${p.usdPerMillionOps.toFixed(4)} per million operations`;
  return `$${p.usdPerHour.toFixed(3)}/h, ${perf} (${p.source}, as of ${p.pricesAsOf})`;
}

/** "step 1 ladder target 40 ops/s: achieved 40 ops/s, READ p95 op 1.20 / intended 1.90 ms: held". */
function stepText(s: CapacityLadderStep, percentile: number): string {
  const ms = (v: number | null) => (v === null ? "-" : v.toFixed(2));
  const lat = s.operations
    .map(
      (o) =>
        `${o.operation} p${percentile} op ${ms(o.opMs)} / intended ${ms(o.intendedMs)} ms${o.failed ? `, ${o.failed} failed` : ""}`,
    )
    .join(", ");
  const verdict = s.role === "probe" ? "probe" : s.pass ? "held" : `broke (${s.breaches.join("; ")})`;
  return `step ${s.step} ${s.role} target ${ops(s.target)}: achieved ${ops(s.achievedOpsSec)}, ${lat}: ${verdict}`;
}
