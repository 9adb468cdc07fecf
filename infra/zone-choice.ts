/**
 * Which availability zone a run lands in, from what EC2 answers at preview (pure: the lookups are in
 * infra/availability-zone.ts). A zone must offer every instance type of the run (DescribeInstanceTypeOfferings with
 * location type availability-zone); among those, the best Spot placement score wins (GetSpotPlacementScores with
 * SingleAvailabilityZone=true, one request per instance group), ties by zone name, so a preview is deterministic.
 *
 * The score is the capacity advice EC2 answers before a launch: "how likely it is that a Spot request will succeed
 * in a Region or Availability Zone", from 1 to 10, for the top 10 zones, and "serves only as a recommendation"
 * (EC2 user guide, "Spot placement score", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-placement-score.html).
 * It scores Spot capacity, EC2's spare capacity; nothing EC2 documents scores On-Demand capacity before a launch,
 * and only an On-Demand Capacity Reservation (`reserveCapacity`) holds it.
 */

/** The lookup's name where Pulumi names lookups (mocks, infra/deployer-policy.ts): EC2's GetSpotPlacementScores. */
export const SPOT_PLACEMENT_SCORES_TOKEN = "ycsb-lab:ec2/getSpotPlacementScores:getSpotPlacementScores";

/** One row of DescribeInstanceTypeOfferings (location type availability-zone): a zone name and a type it offers. */
export interface ZoneOffering {
  location: string;
  instanceType: string;
}

/** A zone of the region by name and by ID: names map to physical zones per account, scores name zone IDs. */
export interface RegionZone {
  name: string;
  id: string;
}

/** One SpotPlacementScore of an answer (EC2 API reference, "SpotPlacementScore"): every field is optional. */
export interface SpotPlacementScore {
  region?: string;
  availabilityZoneId?: string;
  score?: number;
}

/** One GetSpotPlacementScores request: a group's instance type and how many of it run at once. */
export interface ScoreRequest {
  instanceTypes: string[];
  targetCapacity: number;
}

export interface ZoneChoice {
  zone: string;
  /** The zone's score: the lowest over the requests (every group must fit); undefined when no scores were had. */
  score?: number;
  /** Every zone that offers the types, best first, with its score: what the preview reports. */
  ranking: Array<{ zone: string; id: string; score?: number }>;
}

/** The requests a run's zone is scored with: one per instance group, a shared type scored once for both groups. */
export function scoreRequests(groups: Array<{ instanceType: string; count: number }>): ScoreRequest[] {
  const byType = new Map<string, number>();
  for (const g of groups) if (g.count > 0) byType.set(g.instanceType, (byType.get(g.instanceType) ?? 0) + g.count);
  return [...byType]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([t, n]) => ({ instanceTypes: [t], targetCapacity: n }));
}

/** The zones (by name) that offer every one of `types`, in name order. */
export function zonesOffering(offerings: ZoneOffering[], types: string[]): string[] {
  const zones = new Map<string, Set<string>>();
  for (const o of offerings) zones.set(o.location, (zones.get(o.location) ?? new Set()).add(o.instanceType));
  return [...zones.keys()].sort().filter((z) => types.every((t) => zones.get(z)!.has(t)));
}

/**
 * The zone of a run: offering every type, the best score (a zone missing from an answer, which lists the top 10
 * only, counts as below 1), ties by name. `answers` undefined means no scores (the lookup failed): name order alone.
 */
export function chooseZone(input: {
  types: string[];
  offerings: ZoneOffering[];
  zones: RegionZone[];
  answers?: SpotPlacementScore[][];
}): ZoneChoice | undefined {
  const ids = new Map(input.zones.map((z) => [z.name, z.id]));
  const scoreOf = (id: string): number | undefined => {
    if (!input.answers) return undefined;
    return Math.min(
      ...input.answers.map((a) =>
        Math.max(0, ...a.filter((s) => s.availabilityZoneId === id).map((s) => s.score ?? 0)),
      ),
    );
  };
  const ranking = zonesOffering(input.offerings, input.types).map((zone) => {
    const id = ids.get(zone) ?? "";
    return { zone, id, score: id ? scoreOf(id) : input.answers ? 0 : undefined };
  });
  ranking.sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || a.zone.localeCompare(b.zone));
  const best = ranking[0];
  return best ? { zone: best.zone, score: best.score, ranking } : undefined;
}

/** One line for the preview: the chosen zone, its score and the others'. */
export function describeZoneChoice(choice: ZoneChoice): string {
  const scored = (r: ZoneChoice["ranking"][number]) =>
    `${r.zone} (${r.id || "no zone ID"}${r.score === undefined ? "" : `, score ${r.score}`})`;
  const others = choice.ranking.slice(1).map(scored);
  return `availabilityZone: ${scored(choice.ranking[0]!)}${others.length ? `; then ${others.join(", ")}` : ""}`;
}
