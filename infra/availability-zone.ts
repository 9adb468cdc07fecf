import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { spotPlacementScoresOutput } from "./spot-placement-scores.js";
import { chooseZone, describeZoneChoice, type SpotPlacementScore, scoreRequests } from "./zone-choice.js";

/**
 * The availability zone of a run, looked up at preview: of the zones offering every instance type of the run
 * (data nodes' placement group and clients' subnet share one zone: no cross-zone traffic between them), the one with
 * the best Spot placement score for each group's type and count, ties by name (infra/zone-choice.ts). Without scores
 * (the lookup refused or failed) the first zone by name, with a warning saying why. `ycsb-lab:availabilityZone` pins
 * the zone instead; only `reserveCapacity` holds the capacity.
 */
export function zoneChosen(
  groups: Array<{ instanceType: string; count: number }>,
  region: string,
  parent: pulumi.Resource,
): pulumi.Output<string> {
  const types = [...new Set(groups.map((g) => g.instanceType))];
  const p = { parent };
  const offerings = aws.ec2.getInstanceTypeOfferingsOutput(
    { locationType: "availability-zone", filters: [{ name: "instance-type", values: types }] },
    p,
  );
  const zones = aws.getAvailabilityZonesOutput({ state: "available" }, p);
  const answers = pulumi.all(scoreRequests(groups).map((r) => spotPlacementScoresOutput(r, region, parent)));
  return pulumi.all([offerings, zones, answers]).apply(([o, z, a]) => {
    const problems = a.flatMap((x) => ("problem" in x ? [x.problem] : []));
    const scored: SpotPlacementScore[][] | undefined = problems.length
      ? undefined
      : a.map((x) => ("scores" in x ? x.scores : []));
    const choice = chooseZone({
      types,
      offerings: o.locations.map((location, i) => ({ location, instanceType: o.instanceTypes[i]! })),
      zones: z.names.map((name, i) => ({ name, id: z.zoneIds[i] ?? "" })),
      answers: scored,
    });
    if (!choice)
      throw new Error(
        `availabilityZone: no zone of ${region} offers all of ${types.join(", ")}; pick other instance types or set ycsb-lab:availabilityZone`,
      );
    if (problems.length)
      void pulumi.log.warn(
        `availabilityZone: no Spot placement scores (${problems.join("; ")}): the first zone by name offering the types, ${choice.zone}; set ycsb-lab:availabilityZone to choose`,
        parent,
      );
    void pulumi.log.info(describeZoneChoice(choice), parent);
    return choice.zone;
  });
}
