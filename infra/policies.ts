import { clientWriteKeys } from "../model/results-layout.js";

/**
 * IAM policy documents, pure (DESIGN.md reliability rules): a client may write only the keys it owns (its results,
 * barrier arrivals and status; client 0 the manifest and the nodes' command: model/results-layout.ts clientWriteKeys),
 * a data node only its run's cluster objects, its status and its run's engine mirror; both read the run's cluster
 * description and their kit, list only under their own prefixes, and read only their run's SSM parameters. Session Manager replaces SSH with its own actions only:
 * AmazonSSMManagedInstanceCore would also grant ssm:GetParameter* on every parameter, voiding the run scope.
 */
export interface PolicyStatement {
  Sid: string;
  Effect: "Allow" | "Deny";
  Action: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string[]>>;
}

export interface PolicyDocument {
  Version: "2012-10-17";
  Statement: PolicyStatement[];
}

export interface PolicyScope {
  bucketName: string;
  /** e.g. "runs/<id>/" */
  resultsPrefix: string;
  /** e.g. "runs/<id>/cluster/" */
  clusterPrefix: string;
  /** e.g. "runs/<id>/status/" */
  statusPrefix: string;
  /** e.g. "runs/<id>/cluster.json" */
  clusterInfoKey: string;
  /** SSM path like "/ycsb-lab/<id>/" */
  parameterPath: string;
  /** The run's engine mirror, "artifacts/<id>/". */
  artifactsPrefix: string;
  /** The run's id: names the keys a client owns. */
  runId: string;
  /** The kit's key, "kits/<sha256>.tar.gz". */
  kitKey: string;
  region: string;
  accountId: string;
}

const parameterArn = (s: PolicyScope) => `arn:aws:ssm:${s.region}:${s.accountId}:parameter${s.parameterPath}*`;

/**
 * What the SSM agent needs for Session Manager (AWS Systems Manager user guide, "Step 2: Verify or add instance
 * permissions for Session Manager": the ssmmessages and UpdateInstanceInformation actions), without any parameter
 * or document access.
 */
export const SESSION_MANAGER_STATEMENT: PolicyStatement = {
  Sid: "SessionManager",
  Effect: "Allow",
  Action: [
    "ssm:UpdateInstanceInformation",
    "ssmmessages:CreateControlChannel",
    "ssmmessages:CreateDataChannel",
    "ssmmessages:OpenControlChannel",
    "ssmmessages:OpenDataChannel",
  ],
  Resource: ["*"],
};

/** Lists under these prefixes only (s3:prefix): enough to tell a missing key from a refused one (runner/results-store-s3.ts). */
function listUnder(bucket: string, prefixes: string[]): PolicyStatement {
  return {
    Sid: "ListOwnPrefixes",
    Effect: "Allow",
    Action: ["s3:ListBucket"],
    Resource: [bucket],
    Condition: { StringLike: { "s3:prefix": prefixes.map((p) => `${p}*`) } },
  };
}

/** Client `index` of the run: its own role, so that it writes only the keys it owns. */
export function clientPolicy(s: PolicyScope, index: number): PolicyDocument {
  const bucket = `arn:aws:s3:::${s.bucketName}`;
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "WriteOwnKeys",
        Effect: "Allow",
        Action: ["s3:PutObject", "s3:AbortMultipartUpload"],
        Resource: clientWriteKeys(s.runId, index).map((k) => `${bucket}/${k}`),
      },
      { Sid: "ReadOwnRun", Effect: "Allow", Action: ["s3:GetObject"], Resource: [`${bucket}/${s.resultsPrefix}*`] },
      listUnder(bucket, [s.resultsPrefix]),
      { Sid: "ReadKit", Effect: "Allow", Action: ["s3:GetObject"], Resource: [`${bucket}/${s.kitKey}`] },
      { Sid: "ReadRunSecrets", Effect: "Allow", Action: ["ssm:GetParameter"], Resource: [parameterArn(s)] },
      SESSION_MANAGER_STATEMENT,
    ],
  };
}

export function dataNodePolicy(s: PolicyScope): PolicyDocument {
  const bucket = `arn:aws:s3:::${s.bucketName}`;
  return {
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "WriteClusterMarkers",
        Effect: "Allow",
        Action: ["s3:PutObject"],
        Resource: [`${bucket}/${s.clusterPrefix}*`, `${bucket}/${s.statusPrefix}node-*`],
      },
      {
        Sid: "ReadClusterAndKit",
        Effect: "Allow",
        Action: ["s3:GetObject"],
        Resource: [`${bucket}/${s.clusterInfoKey}`, `${bucket}/${s.clusterPrefix}*`, `${bucket}/${s.kitKey}`],
      },
      listUnder(bucket, [s.clusterPrefix, s.artifactsPrefix]),
      {
        Sid: "RunSecrets",
        Effect: "Allow",
        Action: ["ssm:GetParameter", "ssm:PutParameter"],
        Resource: [parameterArn(s)],
      },
      // The run's engine downloads, mirrored by digest (runner/boot/engine-install.ts): checked against the pinned digest.
      {
        Sid: "EngineMirror",
        Effect: "Allow",
        Action: ["s3:GetObject", "s3:PutObject"],
        Resource: [`${bucket}/${s.artifactsPrefix}*`],
      },
      SESSION_MANAGER_STATEMENT,
    ],
  };
}

/** sts:AssumeRole trust documents name a Principal, which PolicyDocument does not model: rendered as JSON here. */
export const EC2_TRUST_POLICY_JSON = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }],
});

/** What the dashboard service (infra/dashboard-service.ts) may do, and nothing more. */
export interface DashboardPolicyScope {
  /** The service's own bucket: its kit, its service description, its status. */
  bucketName: string;
  serviceKey: string;
  statusPrefix: string;
  kitKey: string;
  /** The results buckets it imports from, read-only: exactly these. */
  importBuckets: Array<{ bucket: string; prefix: string }>;
  /** The secrets it reads at boot (write token, read token, database credentials): exactly these ARNs. */
  secretArns: string[];
}

export function dashboardPolicy(s: DashboardPolicyScope): PolicyDocument {
  const own = `arn:aws:s3:::${s.bucketName}`;
  const statements: PolicyStatement[] = [
    {
      Sid: "ReadServiceAndKit",
      Effect: "Allow",
      Action: ["s3:GetObject"],
      Resource: [`${own}/${s.serviceKey}`, `${own}/${s.kitKey}`],
    },
    {
      Sid: "WriteOwnStatus",
      Effect: "Allow",
      Action: ["s3:PutObject"],
      Resource: [`${own}/${s.statusPrefix}dashboard-*`],
    },
  ];
  if (s.importBuckets.length > 0) {
    statements.push({
      Sid: "ReadImportedResults",
      Effect: "Allow",
      Action: ["s3:GetObject"],
      Resource: s.importBuckets.map((b) => `arn:aws:s3:::${b.bucket}/${b.prefix}*`),
    });
    for (const [i, b] of s.importBuckets.entries()) {
      statements.push({
        Sid: `ListImportedResults${i}`,
        Effect: "Allow",
        Action: ["s3:ListBucket"],
        Resource: [`arn:aws:s3:::${b.bucket}`],
        ...(b.prefix ? { Condition: { StringLike: { "s3:prefix": [`${b.prefix}*`] } } } : {}),
      });
    }
  }
  statements.push(
    { Sid: "ReadOwnSecrets", Effect: "Allow", Action: ["secretsmanager:GetSecretValue"], Resource: [...s.secretArns] },
    SESSION_MANAGER_STATEMENT,
  );
  return { Version: "2012-10-17", Statement: statements };
}
