/** A run's realized cost in one sentence (pure: no DOM, no fetch), as its page shows it beside its figures. */
import type { Static } from "@sinclair/typebox";
import type { RunCostSchema } from "../../model/api-schemas.js";

export type RunCost = Static<typeof RunCostSchema>;

const usd = (x: number) => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;

export function runCostText(runId: string, cost: RunCost): string {
  if (!cost.priced) return `${runId}: ${cost.statement}.`;
  const perHour =
    cost.configurationUsdPerHour === null ? "" : `, ${usd(cost.configurationUsdPerHour)}/h for the data nodes`;
  const seconds = cost.instances.reduce((a, i) => a + i.billedSeconds, 0);
  const sum = (part: "instance" | "volumes" | "publicIpv4") =>
    cost.instances.reduce((a, i) => a + (i.parts[part] ?? 0), 0);
  // The parts only when some instance's volumes and address were counted (covers says for which).
  const parts = cost.instances.some((i) => i.parts.volumes !== null)
    ? ` (instance-hours ${usd(sum("instance"))}, EBS volumes ${usd(sum("volumes"))}, ` +
      `public IPv4 ${usd(sum("publicIpv4"))})`
    : "";
  return (
    `${runId}: realized cost ${usd(cost.usd)}${parts} for ${cost.instances.length} instance(s), ` +
    `${Math.round(seconds)} s billed${perHour} (${cost.covers}; prices of ${cost.pricesAsOf}, ${cost.source}).`
  );
}
