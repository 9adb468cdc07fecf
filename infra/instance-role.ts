import * as aws from "@pulumi/aws";
import type * as pulumi from "@pulumi/pulumi";
import { EC2_TRUST_POLICY_JSON } from "./policies.js";
import { ROOT_VOLUME_GIB } from "./volumes.js";

/** An EC2 role with one inline policy (which carries the Session Manager actions: no SSH), and its instance profile. */
export function instanceRole(
  name: string,
  policy: pulumi.Input<string>,
  tags: Record<string, string>,
  parent: pulumi.Resource,
): aws.iam.InstanceProfile {
  const p = { parent };
  const role = new aws.iam.Role(`${name}-role`, { assumeRolePolicy: EC2_TRUST_POLICY_JSON, tags }, p);
  const inline = new aws.iam.RolePolicy(`${name}-policy`, { role: role.id, policy }, p);
  // The profile waits for the policy: an instance booting before its permissions exist would fail its first S3 read.
  return new aws.iam.InstanceProfile(`${name}-profile`, { role: role.name, tags }, { parent, dependsOn: [inline] });
}

/**
 * Launch settings every ycsb-lab instance shares: IMDSv2 only, encrypted gp3 root, and a shutdown that terminates
 * (the boot command shuts the instance down at the run's expiry: a forgotten fleet stops costing).
 */
export const SAFE_INSTANCE_DEFAULTS = {
  metadataOptions: { httpTokens: "required", httpEndpoint: "enabled", httpPutResponseHopLimit: 1 },
  rootBlockDevice: { encrypted: true, volumeType: "gp3", volumeSize: ROOT_VOLUME_GIB, deleteOnTermination: true },
  instanceInitiatedShutdownBehavior: "terminate",
} as const;

/** Spot capacity, one-time, terminated on interruption (EC2 user guide, "Spot Instance interruptions"). */
export const SPOT_ONE_TIME = {
  instanceMarketOptions: {
    marketType: "spot",
    spotOptions: { spotInstanceType: "one-time", instanceInterruptionBehavior: "terminate" },
  },
} as const;
