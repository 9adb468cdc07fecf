import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";

/**
 * The distribution every instance runs, and the one `ycsb-lab rehearse` boots as an OS container (a root file system
 * from Debian's own mirror): the image that boots on AWS is the distribution that was rehearsed. Debian 12 ships
 * OpenJDK 17 (Cassandra 5.0, HBase 2.5 and YCSB run on it); MongoDB 8.0 and Couchbase Server 7.6 publish Debian 12
 * builds.
 */
export interface AmiDistribution {
  /** Debian's name of the release, as debootstrap and apt know it. */
  codename: string;
  /** "debian-12": what a stack names with `ycsb-lab:amiDistribution` when it brings an AMI of its own. */
  id: string;
  /** The official images' owner and name pattern on EC2. */
  owner: string;
  namePattern: string;
}

/** Debian's AWS account, owner of the official Debian AMIs (https://wiki.debian.org/Cloud/AmazonEC2Image). */
export const DEBIAN_OWNER_ID = "136693071363";

/** The official Debian 12 (bookworm) image, amd64; "debian-12-backports-*" images do not match the pattern. */
export const DEBIAN_12: AmiDistribution = {
  id: "debian-12",
  codename: "bookworm",
  owner: DEBIAN_OWNER_ID,
  namePattern: "debian-12-amd64-*",
};

/** Every distribution ycsb-lab's user-data is written and rehearsed for, by id. */
export const AMI_DISTRIBUTIONS: Record<string, AmiDistribution> = { [DEBIAN_12.id]: DEBIAN_12 };

/** The newest official image of the distribution in the provider's region, looked up at deploy time, never hard-coded. */
export function distributionAmi(
  parent: pulumi.Resource,
  distribution: AmiDistribution = DEBIAN_12,
): pulumi.Output<string> {
  return aws.ec2
    .getAmiOutput(
      {
        owners: [distribution.owner],
        mostRecent: true,
        filters: [
          { name: "name", values: [distribution.namePattern] },
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
 * later `up`s ignore (ignoreChanges), so a newer Debian image never changes what repeats of a study run on. Set
 * `amiId` (config `ycsb-lab:ami`) to choose one; delete the parameter to move to the newest image.
 */
export function pinnedAmi(
  name: string,
  pinName: string,
  tags: Record<string, string>,
  parent: pulumi.Resource,
): pulumi.Output<string> {
  const pin = new aws.ssm.Parameter(
    `${name}-ami-pin`,
    {
      name: `/ycsb-lab/pins/${pinName}/ami`,
      type: "String",
      value: distributionAmi(parent),
      description:
        "The AMI this ycsb-lab stack runs on: resolved at its first up, kept for later ones (delete to move on)",
      tags,
    },
    { parent, ignoreChanges: ["value"] },
  );
  // The provider marks every parameter value secret; an AMI id is not, and it goes into user-data and results.
  return pulumi.unsecret(pin.value);
}
