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
