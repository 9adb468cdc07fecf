import * as aws from "@pulumi/aws";
import * as pulumi from "@pulumi/pulumi";
import { ARTIFACTS_PREFIX } from "../model/results-layout.js";
import { failOn, isInteger } from "./errors.js";

export interface ResultsBucketArgs {
  /** Days after which result objects move to S3 Standard-IA. @default 30 */
  infrequentAccessAfterDays?: number;
  /** Days after which result objects are deleted; 0 keeps them forever. @default 0 */
  expireAfterDays?: number;
  /**
   * Delete the bucket with its objects on `pulumi destroy`. Off by default: results are the product, so a destroy
   * leaves the bucket, everything in it and its guards (public access block, TLS-only policy, encryption, ownership,
   * lifecycle) in place, removed from the stack's state only (retainOnDelete). @default false
   */
  forceDestroy?: boolean;
  /** Tags on every resource. @default {} */
  tags?: Record<string, string>;
}

/** The bucket results land in: encrypted (SSE-S3), public access blocked, owner-enforced ACLs, TLS only, lifecycle rules. */
export class ResultsBucket extends pulumi.ComponentResource {
  public readonly bucketName: pulumi.Output<string>;
  public readonly bucketArn: pulumi.Output<string>;
  /** What `pulumi destroy` does to the bucket, in words (a stack output, so the user sees it before destroying). */
  public readonly keptOnDestroy: pulumi.Output<string>;

  constructor(name: string, args: ResultsBucketArgs = {}, opts?: pulumi.ComponentResourceOptions) {
    const ia = args.infrequentAccessAfterDays ?? 30;
    const expire = args.expireAfterDays ?? 0;
    failOn("ResultsBucket", [
      // S3 needs objects to be 30 days old before a Standard-IA transition (S3 user guide, "Transitioning objects").
      ...(isInteger(ia, 30)
        ? []
        : [
            {
              field: "infrequentAccessAfterDays",
              message: `a whole number >= 30 (S3's minimum for Standard-IA), got ${ia}`,
            },
          ]),
      ...(isInteger(expire, 0) && (expire === 0 || expire > ia)
        ? []
        : [
            {
              field: "expireAfterDays",
              message: `0 (keep) or a whole number above infrequentAccessAfterDays (${ia}), got ${expire}`,
            },
          ]),
    ]);
    super("ycsb-lab:index:ResultsBucket", name, {}, opts);
    // Kept resources: a destroy forgets them instead of deleting them, guards first (they would otherwise go before the
    // bucket, and then the delete of the non-empty bucket fails with the results unguarded).
    const keep = !(args.forceDestroy ?? false);
    const p = { parent: this, retainOnDelete: keep };
    const tags = args.tags ?? {};
    const bucket = new aws.s3.Bucket(
      `${name}-bucket`,
      { bucketPrefix: `${name.slice(0, 30).toLowerCase()}-`, forceDestroy: args.forceDestroy ?? false, tags },
      p,
    );
    new aws.s3.BucketPublicAccessBlock(
      `${name}-public-access`,
      {
        bucket: bucket.id,
        blockPublicAcls: true,
        blockPublicPolicy: true,
        ignorePublicAcls: true,
        restrictPublicBuckets: true,
      },
      p,
    );
    new aws.s3.BucketOwnershipControls(
      `${name}-ownership`,
      { bucket: bucket.id, rule: { objectOwnership: "BucketOwnerEnforced" } },
      p,
    );
    new aws.s3.BucketServerSideEncryptionConfiguration(
      `${name}-encryption`,
      {
        bucket: bucket.id,
        rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: "AES256" }, bucketKeyEnabled: true }],
      },
      p,
    );
    new aws.s3.BucketLifecycleConfiguration(
      `${name}-lifecycle`,
      {
        bucket: bucket.id,
        rules: [
          {
            id: "results-to-ia",
            status: "Enabled",
            filter: { prefix: "runs/" },
            transitions: [{ days: ia, storageClass: "STANDARD_IA" }],
            ...(expire > 0 ? { expiration: { days: expire } } : {}),
          },
          // A run's engine mirror (artifacts/<runId>/) only speeds its formation up: gone a week later.
          {
            id: "engine-mirrors-expire",
            status: "Enabled",
            filter: { prefix: ARTIFACTS_PREFIX },
            expiration: { days: 7 },
          },
          {
            id: "abort-incomplete-uploads",
            status: "Enabled",
            filter: { prefix: "" },
            abortIncompleteMultipartUpload: { daysAfterInitiation: 7 },
          },
        ],
      },
      p,
    );
    new aws.s3.BucketPolicy(
      `${name}-tls-only`,
      {
        bucket: bucket.id,
        policy: bucket.arn.apply((arn) =>
          JSON.stringify({
            Version: "2012-10-17",
            Statement: [
              {
                Sid: "DenyInsecureTransport",
                Effect: "Deny",
                Principal: "*",
                Action: "s3:*",
                Resource: [arn, `${arn}/*`],
                Condition: { Bool: { "aws:SecureTransport": "false" } },
              },
            ],
          }),
        ),
      },
      p,
    );
    this.bucketName = bucket.bucket;
    this.bucketArn = bucket.arn;
    this.keptOnDestroy = keep
      ? pulumi.interpolate`pulumi destroy keeps s3://${bucket.bucket} with every result and its guards (public access block, TLS-only policy, encryption); delete it yourself when the results are no longer wanted`
      : pulumi.output("pulumi destroy deletes the bucket and every result in it (forceDestroy)");
    if (keep) void this.keptOnDestroy.apply((note) => pulumi.log.info(note, this));
    this.registerOutputs({ bucketName: this.bucketName, bucketArn: this.bucketArn, keptOnDestroy: this.keptOnDestroy });
  }
}
