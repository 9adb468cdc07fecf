import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";

/** Canonical's AWS account, owner of the official Ubuntu AMIs (https://documentation.ubuntu.com/aws/). */
export const CANONICAL_OWNER_ID = "099720109477";
/** Ubuntu 24.04 LTS (noble), amd64, gp3 root: the name pattern Canonical publishes. */
export const UBUNTU_LTS_NAME = "ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*";

/** The newest Ubuntu LTS AMI in the provider's region, looked up at deploy time, never hard-coded. */
export function ubuntuLtsAmi(parent: pulumi.Resource): pulumi.Output<string> {
  return aws.ec2
    .getAmiOutput(
      {
        owners: [CANONICAL_OWNER_ID],
        mostRecent: true,
        filters: [
          { name: "name", values: [UBUNTU_LTS_NAME] },
          { name: "architecture", values: ["x86_64"] },
          { name: "virtualization-type", values: ["hvm"] },
        ],
      },
      { parent },
    )
    .apply((ami) => ami.id);
}

/**
 * The AMI a stack runs on, remembered: the image resolved at the first `up` is kept in an SSM parameter whose value
 * later `up`s ignore (ignoreChanges), so a newer Ubuntu image never changes what repeats of a study run on. Set
 * `amiId` (config `ycsb-lab:ami`) to choose one; delete the parameter to move to the newest image.
 */
export function pinnedAmi(name: string, pinName: string, tags: Record<string, string>, parent: pulumi.Resource): pulumi.Output<string> {
  const pin = new aws.ssm.Parameter(
    `${name}-ami-pin`,
    {
      name: `/ycsb-lab/pins/${pinName}/ami`,
      type: "String",
      value: ubuntuLtsAmi(parent),
      description: "The AMI this ycsb-lab stack runs on: resolved at its first up, kept for later ones (delete to move on)",
      tags,
    },
    { parent, ignoreChanges: ["value"] },
  );
  // The provider marks every parameter value secret; an AMI id is not, and it goes into user-data and results.
  return pulumi.unsecret(pin.value);
}
