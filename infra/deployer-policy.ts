import type { PolicyDocument, PolicyStatement } from "./policies.js";
import { SPOT_PLACEMENT_SCORES_TOKEN } from "./zone-choice.js";

/**
 * The least-privilege IAM policy of the principal that runs `pulumi up` / `destroy` of a scenario stack (pure; printed
 * by `ycsb-lab plan --deployer-policy`): the create, read, update and delete calls the Pulumi AWS provider makes for
 * each resource type the components register (DEPLOYER_ACTIONS, one entry per type, checked against every stack
 * evaluated under mocks by test/infra/infra-deployer-policy.test.ts), and the lookups the program makes at preview.
 * Scoped where IAM allows: the results bucket by its name prefix, roles and instance profiles by the scenario's name,
 * the AMI pin by its parameter path, iam:PassRole to EC2 only; EC2's calls mostly support no resource-level scoping and
 * are held to the stack's region instead (IAM user guide, "aws:RequestedRegion"). The dashboard stack needs RDS,
 * Secrets Manager and ELB on top, which this policy does not grant.
 */
export const DEPLOYER_ACTIONS: Readonly<Record<string, { service: "ec2" | "s3" | "iam" | "ssm"; actions: string[] }>> =
  {
    "aws:ec2/vpc:Vpc": {
      service: "ec2",
      actions: [
        "ec2:CreateVpc",
        "ec2:DeleteVpc",
        "ec2:DescribeVpcs",
        "ec2:DescribeVpcAttribute",
        "ec2:ModifyVpcAttribute",
        "ec2:DescribeNetworkAcls",
        "ec2:DescribeRouteTables",
        "ec2:DescribeSecurityGroups",
      ],
    },
    "aws:ec2/internetGateway:InternetGateway": {
      service: "ec2",
      actions: [
        "ec2:CreateInternetGateway",
        "ec2:AttachInternetGateway",
        "ec2:DetachInternetGateway",
        "ec2:DeleteInternetGateway",
        "ec2:DescribeInternetGateways",
      ],
    },
    "aws:ec2/routeTable:RouteTable": {
      service: "ec2",
      actions: [
        "ec2:CreateRouteTable",
        "ec2:DeleteRouteTable",
        "ec2:DescribeRouteTables",
        "ec2:CreateRoute",
        "ec2:ReplaceRoute",
        "ec2:DeleteRoute",
      ],
    },
    "aws:ec2/routeTableAssociation:RouteTableAssociation": {
      service: "ec2",
      actions: ["ec2:AssociateRouteTable", "ec2:DisassociateRouteTable", "ec2:DescribeRouteTables"],
    },
    "aws:ec2/subnet:Subnet": {
      service: "ec2",
      actions: ["ec2:CreateSubnet", "ec2:DeleteSubnet", "ec2:DescribeSubnets", "ec2:ModifySubnetAttribute"],
    },
    "aws:ec2/vpcEndpoint:VpcEndpoint": {
      service: "ec2",
      actions: [
        "ec2:CreateVpcEndpoint",
        "ec2:DeleteVpcEndpoints",
        "ec2:DescribeVpcEndpoints",
        "ec2:ModifyVpcEndpoint",
        "ec2:DescribePrefixLists",
      ],
    },
    "aws:ec2/securityGroup:SecurityGroup": {
      service: "ec2",
      actions: [
        "ec2:CreateSecurityGroup",
        "ec2:DeleteSecurityGroup",
        "ec2:DescribeSecurityGroups",
        "ec2:DescribeSecurityGroupRules",
        "ec2:AuthorizeSecurityGroupIngress",
        "ec2:AuthorizeSecurityGroupEgress",
        "ec2:RevokeSecurityGroupIngress",
        "ec2:RevokeSecurityGroupEgress",
      ],
    },
    "aws:ec2/placementGroup:PlacementGroup": {
      service: "ec2",
      actions: ["ec2:CreatePlacementGroup", "ec2:DeletePlacementGroup", "ec2:DescribePlacementGroups"],
    },
    "aws:ec2/eip:Eip": {
      service: "ec2",
      actions: ["ec2:AllocateAddress", "ec2:ReleaseAddress", "ec2:DescribeAddresses", "ec2:DescribeAddressesAttribute"],
    },
    "aws:ec2/natGateway:NatGateway": {
      service: "ec2",
      actions: ["ec2:CreateNatGateway", "ec2:DeleteNatGateway", "ec2:DescribeNatGateways"],
    },
    "aws:ec2/capacityReservation:CapacityReservation": {
      service: "ec2",
      actions: [
        "ec2:CreateCapacityReservation",
        "ec2:ModifyCapacityReservation",
        "ec2:CancelCapacityReservation",
        "ec2:DescribeCapacityReservations",
      ],
    },
    "aws:ec2/instance:Instance": {
      service: "ec2",
      actions: [
        "ec2:RunInstances",
        "ec2:TerminateInstances",
        "ec2:StopInstances",
        "ec2:StartInstances",
        "ec2:DescribeInstances",
        "ec2:DescribeInstanceAttribute",
        "ec2:ModifyInstanceAttribute",
        "ec2:ModifyInstanceMetadataOptions",
        "ec2:DescribeInstanceTypes",
        "ec2:DescribeInstanceCreditSpecifications",
        "ec2:DescribeVolumes",
        "ec2:DescribeTags",
        "ec2:DescribeNetworkInterfaces",
        "ec2:AssociateIamInstanceProfile",
        "ec2:DescribeIamInstanceProfileAssociations",
      ],
    },
    "aws:s3/bucket:Bucket": {
      service: "s3",
      actions: [
        "s3:CreateBucket",
        "s3:DeleteBucket",
        "s3:ListBucket",
        "s3:GetBucket*",
        "s3:PutBucketTagging",
        "s3:GetAccelerateConfiguration",
        "s3:GetReplicationConfiguration",
      ],
    },
    "aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock": {
      service: "s3",
      actions: ["s3:PutBucketPublicAccessBlock", "s3:GetBucketPublicAccessBlock"],
    },
    "aws:s3/bucketOwnershipControls:BucketOwnershipControls": {
      service: "s3",
      actions: ["s3:PutBucketOwnershipControls", "s3:GetBucketOwnershipControls"],
    },
    "aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration": {
      service: "s3",
      actions: ["s3:PutEncryptionConfiguration", "s3:GetEncryptionConfiguration"],
    },
    "aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration": {
      service: "s3",
      actions: ["s3:PutLifecycleConfiguration", "s3:GetLifecycleConfiguration"],
    },
    "aws:s3/bucketPolicy:BucketPolicy": { service: "s3", actions: ["s3:PutBucketPolicy", "s3:GetBucketPolicy"] },
    "aws:s3/bucketObjectv2:BucketObjectv2": {
      service: "s3",
      actions: ["s3:PutObject", "s3:GetObject", "s3:GetObjectTagging", "s3:PutObjectTagging", "s3:DeleteObject"],
    },
    "aws:iam/role:Role": {
      service: "iam",
      actions: [
        "iam:CreateRole",
        "iam:DeleteRole",
        "iam:GetRole",
        "iam:TagRole",
        "iam:UntagRole",
        "iam:UpdateAssumeRolePolicy",
        "iam:ListRolePolicies",
        "iam:ListAttachedRolePolicies",
        "iam:ListInstanceProfilesForRole",
      ],
    },
    "aws:iam/rolePolicy:RolePolicy": {
      service: "iam",
      actions: ["iam:PutRolePolicy", "iam:GetRolePolicy", "iam:DeleteRolePolicy"],
    },
    "aws:iam/instanceProfile:InstanceProfile": {
      service: "iam",
      actions: [
        "iam:CreateInstanceProfile",
        "iam:DeleteInstanceProfile",
        "iam:GetInstanceProfile",
        "iam:AddRoleToInstanceProfile",
        "iam:RemoveRoleFromInstanceProfile",
        "iam:TagInstanceProfile",
      ],
    },
    "aws:ssm/parameter:Parameter": {
      service: "ssm",
      actions: [
        "ssm:PutParameter",
        "ssm:GetParameter",
        "ssm:GetParameters",
        "ssm:DeleteParameter",
        "ssm:AddTagsToResource",
        "ssm:ListTagsForResource",
      ],
    },
  };

/** What the program looks up at preview, by Pulumi invoke token. */
export const DEPLOYER_LOOKUPS: Readonly<Record<string, string[]>> = {
  "aws:ec2/getAmi:getAmi": ["ec2:DescribeImages"],
  "aws:ec2/getInstanceTypeOfferings:getInstanceTypeOfferings": ["ec2:DescribeInstanceTypeOfferings"],
  "aws:index/getAvailabilityZones:getAvailabilityZones": ["ec2:DescribeAvailabilityZones"],
  // Asked with the AWS SDK (no Pulumi function exists): the zone's capacity score (infra/spot-placement-scores.ts).
  [SPOT_PLACEMENT_SCORES_TOKEN]: ["ec2:GetSpotPlacementScores"],
  "aws:servicequotas/getServiceQuota:getServiceQuota": ["servicequotas:GetServiceQuota"],
  // sts:GetCallerIdentity needs no permission (IAM user guide, "GetCallerIdentity").
  "aws:index/getCallerIdentity:getCallerIdentity": [],
  "aws:ssm/getParameter:getParameter": ["ssm:GetParameter"],
};

export interface DeployerScope {
  account: string;
  region: string;
  /** The BenchmarkScenario's name (the stacks use the scenario's): its bucket, roles and profiles are named after it. */
  name: string;
  /** The Pulumi stack: names the AMI pin's parameter. */
  stack: string;
}

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
const actionsOf = (service: string) =>
  sorted(
    Object.values(DEPLOYER_ACTIONS)
      .filter((e) => e.service === service)
      .flatMap((e) => e.actions),
  );

export function deployerPolicy(s: DeployerScope): PolicyDocument {
  const region = { StringEquals: { "aws:RequestedRegion": [s.region] } };
  const named = (kind: "role" | "instance-profile") => `arn:aws:iam::${s.account}:${kind}/${s.name}-*`;
  // ResultsBucket's bucketPrefix (infra/results-bucket.ts): its component name, cut at 30 characters.
  const bucketPrefix = `${s.name}-results`.slice(0, 30).toLowerCase();
  const statements: PolicyStatement[] = [
    {
      Sid: "Ec2InTheStacksRegion",
      Effect: "Allow",
      Action: sorted([
        ...actionsOf("ec2"),
        "ec2:CreateTags",
        "ec2:DeleteTags",
        ...Object.values(DEPLOYER_LOOKUPS)
          .flat()
          .filter((a) => a.startsWith("ec2:")),
      ]),
      Resource: ["*"],
      Condition: region,
    },
    {
      Sid: "ServiceQuotaLookup",
      Effect: "Allow",
      Action: ["servicequotas:GetServiceQuota"],
      Resource: [`arn:aws:servicequotas:${s.region}:${s.account}:ec2/*`],
    },
    // The results bucket, its guards and its objects (kits, plan.json, cluster.json).
    { Sid: "ResultsBucket", Effect: "Allow", Action: actionsOf("s3"), Resource: [`arn:aws:s3:::${bucketPrefix}-*`] },
    {
      Sid: "InstanceRoles",
      Effect: "Allow",
      Action: actionsOf("iam"),
      Resource: [named("role"), named("instance-profile")],
    },
    {
      Sid: "PassInstanceRolesToEc2",
      Effect: "Allow",
      Action: ["iam:PassRole"],
      Resource: [named("role")],
      Condition: { StringEquals: { "iam:PassedToService": ["ec2.amazonaws.com"] } },
    },
    {
      Sid: "AmiPin",
      Effect: "Allow",
      Action: actionsOf("ssm"),
      Resource: [`arn:aws:ssm:${s.region}:${s.account}:parameter/ycsb-lab/pins/${s.stack}/*`],
    },
    // Public parameters AWS publishes (an OS image's current AMI id).
    {
      Sid: "PublicAmiParameters",
      Effect: "Allow",
      Action: ["ssm:GetParameter", "ssm:GetParameters"],
      Resource: [`arn:aws:ssm:${s.region}::parameter/aws/service/*`],
    },
  ];
  return { Version: "2012-10-17", Statement: statements };
}
