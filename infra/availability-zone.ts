import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";

/**
 * The availability zone of a run: the first (in name order) that offers both the data nodes' and the clients'
 * instance types, so the data nodes' placement group and the clients' subnet share one zone (no cross-zone traffic
 * between clients and nodes). Zone names map to different physical zones per account, so name order says nothing of
 * capacity: a capacity failure is answered by `ycsb-lab:availabilityZone` or `reserveCapacity`. Pure part: `zoneOffering`.
 */
export function zoneOffering(offerings: Array<{ location: string; instanceType: string }>, types: string[]): string | undefined {
  const zones = new Map<string, Set<string>>();
  for (const o of offerings) zones.set(o.location, (zones.get(o.location) ?? new Set()).add(o.instanceType));
  return [...zones.keys()].sort().find((z) => types.every((t) => zones.get(z)!.has(t)));
}

export function zoneOfferingBoth(types: string[], region: string, parent: pulumi.Resource): pulumi.Output<string> {
  const wanted = [...new Set(types)];
  return aws.ec2
    .getInstanceTypeOfferingsOutput({ locationType: "availability-zone", filters: [{ name: "instance-type", values: wanted }] }, { parent })
    .apply((r) => {
      const zone = zoneOffering(r.locations.map((location, i) => ({ location, instanceType: r.instanceTypes[i]! })), wanted);
      if (!zone) throw new Error(`availabilityZone: no zone of ${region} offers all of ${wanted.join(", ")}; pick other instance types or set ycsb-lab:availabilityZone`);
      return zone;
    });
}
