import * as aws from "@pulumi/aws";
import type * as pulumi from "@pulumi/pulumi";
import { instanceType } from "../model/instance-types.js";
import type { Deployment } from "../model/scenario.js";

/**
 * The account's room for a stack, checked at preview before anything bills. EC2 limits running On-Demand instances
 * of the standard families (A, C, D, H, I, M, R, T, Z) by their vCPUs, per region, under Service Quotas code
 * L-1216C47A (EC2 user guide, "Amazon EC2 service quotas": "Running On-Demand Standard (A, C, D, H, I, M, R, T, Z)
 * instances"); a new account's value is far below a 32-node study. Spot capacity has a quota of its own.
 */
export const ON_DEMAND_STANDARD_VCPU_QUOTA = "L-1216C47A";
const STANDARD_FAMILY = /^[acdhimrtz]/;

export interface VcpuNeed {
  /** On-Demand vCPUs of the standard families the stack runs at once. */
  vcpus: number;
  /** How the number is made up, e.g. "32 x m5d.xlarge (4 vCPUs)". */
  parts: string[];
}

/** The On-Demand standard-family vCPUs a deployment runs at once (Spot groups excluded: they count elsewhere). */
export function onDemandVcpuNeed(d: Deployment, spot: { dataNodes?: boolean; clients?: boolean } = {}): VcpuNeed {
  const groups = [
    { count: d.nodes, type: d.dataInstanceType, spot: spot.dataNodes ?? false },
    { count: d.clients, type: d.clientInstanceType, spot: spot.clients ?? false },
  ].filter((g) => !g.spot && STANDARD_FAMILY.test(g.type));
  const parts = groups.map((g) => `${g.count} x ${g.type} (${instanceType(g.type, "instanceType").vcpus} vCPUs)`);
  return { vcpus: groups.reduce((sum, g) => sum + g.count * instanceType(g.type, "instanceType").vcpus, 0), parts };
}

export const quotaIncreaseUrl = (region: string): string =>
  `https://${region}.console.aws.amazon.com/servicequotas/home/services/ec2/quotas/${ON_DEMAND_STANDARD_VCPU_QUOTA}`;

/** Pure: the refusal when the quota cannot hold the stack, naming both numbers and where to ask for more. */
export function vcpuQuotaProblem(need: VcpuNeed, quota: number, region: string): string | undefined {
  if (need.vcpus <= quota) return undefined;
  return (
    `the account's On-Demand vCPU quota in ${region} (Service Quotas ${ON_DEMAND_STANDARD_VCPU_QUOTA}, running On-Demand standard instances) ` +
    `is ${quota} vCPUs; this stack needs ${need.vcpus} (${need.parts.join(" + ")}), and instances already running in the account count too. ` +
    `Ask for an increase at ${quotaIncreaseUrl(region)}, or deploy fewer nodes`
  );
}

/** The quota, looked up at preview; the output fails (and with it the preview) when the stack does not fit. */
export function vcpuQuotaChecked(need: VcpuNeed, region: string, parent: pulumi.Resource): pulumi.Output<number> {
  return aws.servicequotas
    .getServiceQuotaOutput({ serviceCode: "ec2", quotaCode: ON_DEMAND_STANDARD_VCPU_QUOTA }, { parent })
    .apply((q) => {
      const problem = vcpuQuotaProblem(need, q.value, region);
      // A plain Error: the preview fails with the message alone (a ResourceError would carry the whole component).
      if (problem) throw new Error(`BenchmarkScenario: vcpuQuota: ${problem}`);
      return q.value;
    });
}
