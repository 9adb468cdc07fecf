import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { EC2_TRUST_POLICY_JSON, SSM_CORE_POLICY_ARN } from "./policies.js";

/** An EC2 role with SSM Session Manager (no SSH) and one inline policy, and its instance profile. */
export function instanceRole(name: string, policy: pulumi.Input<string>, tags: Record<string, string>, parent: pulumi.Resource): aws.iam.InstanceProfile {
  const p = { parent };
  const role = new aws.iam.Role(`${name}-role`, { assumeRolePolicy: EC2_TRUST_POLICY_JSON, tags }, p);
  new aws.iam.RolePolicyAttachment(`${name}-ssm`, { role: role.name, policyArn: SSM_CORE_POLICY_ARN }, p);
  new aws.iam.RolePolicy(`${name}-policy`, { role: role.id, policy }, p);
  return new aws.iam.InstanceProfile(`${name}-profile`, { role: role.name, tags }, p);
}

/** Launch settings every ycsb-lab instance shares: IMDSv2 only, encrypted gp3 root. */
export const SAFE_INSTANCE_DEFAULTS = {
  metadataOptions: { httpTokens: "required", httpEndpoint: "enabled", httpPutResponseHopLimit: 1 },
  rootBlockDevice: { encrypted: true, volumeType: "gp3", volumeSize: 30, deleteOnTermination: true },
} as const;
