/**
 * IAM policy documents, pure: a client may write only under its own run's prefix (DESIGN.md reliability rules), a data
 * node only under the run's cluster/ prefix, and both read only their run's SSM parameters.
 */
export interface PolicyDocument {
  Version: "2012-10-17";
  Statement: Array<{ Sid: string; Effect: "Allow" | "Deny"; Action: string[]; Resource: string[]; Condition?: Record<string, Record<string, string[]>> }>;
}

export interface PolicyScope {
  bucketName: string;
  /** e.g. "runs/<id>/" */
  resultsPrefix: string;
  /** e.g. "runs/<id>/cluster/" */
  clusterPrefix: string;
  /** SSM path like "/ycsb-lab/<id>/" */
  parameterPath: string;
  region: string;
  accountId: string;
}

const parameterArn = (s: PolicyScope) => `arn:aws:ssm:${s.region}:${s.accountId}:parameter${s.parameterPath}*`;

export function clientPolicy(s: PolicyScope): PolicyDocument {
  const bucket = `arn:aws:s3:::${s.bucketName}`;
  return {
    Version: "2012-10-17",
    Statement: [
      { Sid: "WriteOwnRun", Effect: "Allow", Action: ["s3:PutObject", "s3:AbortMultipartUpload"], Resource: [`${bucket}/${s.resultsPrefix}*`] },
      { Sid: "ReadOwnRun", Effect: "Allow", Action: ["s3:GetObject"], Resource: [`${bucket}/${s.resultsPrefix}*`] },
      { Sid: "ListOwnRun", Effect: "Allow", Action: ["s3:ListBucket"], Resource: [bucket], Condition: { StringLike: { "s3:prefix": [`${s.resultsPrefix}*`] } } },
      { Sid: "ReadRunSecrets", Effect: "Allow", Action: ["ssm:GetParameter"], Resource: [parameterArn(s)] },
    ],
  };
}

export function dataNodePolicy(s: PolicyScope): PolicyDocument {
  const bucket = `arn:aws:s3:::${s.bucketName}`;
  return {
    Version: "2012-10-17",
    Statement: [
      { Sid: "WriteClusterMarkers", Effect: "Allow", Action: ["s3:PutObject"], Resource: [`${bucket}/${s.clusterPrefix}*`] },
      { Sid: "RunSecrets", Effect: "Allow", Action: ["ssm:GetParameter", "ssm:PutParameter"], Resource: [parameterArn(s)] },
    ],
  };
}


/** sts:AssumeRole trust documents name a Principal, which PolicyDocument does not model: rendered as JSON here. */
export const EC2_TRUST_POLICY_JSON = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "ec2.amazonaws.com" }, Action: "sts:AssumeRole" }],
});

/** AWS managed policy for Session Manager access instead of SSH. */
export const SSM_CORE_POLICY_ARN = "arn:aws:iam::aws:policy/AmazonSSMManagedInstanceCore";
