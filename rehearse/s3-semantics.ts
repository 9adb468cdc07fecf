import type { PolicyDocument } from "../infra/policies.js";
import { evaluatePolicy, type IamRequest, iamRequestOf } from "../infra/policy-eval.js";

/**
 * How S3 answers a request of an IAM principal, where the emulator (moto) answers more kindly. Pure: the rehearsal's
 * proxy (rehearse/recording-proxy.ts) asks before forwarding a call and again when the emulator has answered.
 *
 * The rules, each from AWS's documentation:
 * - A request the caller's identity policy does not allow, Condition blocks included, is refused with 403
 *   AccessDenied (IAM user guide, "Policy evaluation logic"); moto judges actions and resources but ignores
 *   conditions, such as the `s3:prefix` of a ListBucket (S3 user guide, "Condition key examples": s3:prefix).
 * - A GET or HEAD of a key that does not exist answers 404 NoSuchKey only when the caller has s3:ListBucket on the
 *   bucket; without it S3 answers 403 AccessDenied (S3 API reference, GetObject and HeadObject, "Permissions": "If you
 *   don't have the s3:ListBucket permission, Amazon S3 returns an HTTP status code 403 Access Denied error").
 *   Whether a ListBucket allowed only under an s3:prefix condition counts is not documented; this module takes the
 *   strict reading: the GET carries no s3:prefix, so such a condition does not hold, and the answer is 403.
 */
export interface S3Call {
  method: string;
  /** Path-style: /<bucket>/<key>, as the SDK sends it to an endpoint override. */
  path: string;
  query: Record<string, string>;
}

export interface S3Scope {
  region: string;
  account: string;
}

export type S3Verdict =
  | { kind: "forward" }
  | {
      kind: "refuse";
      status: 403;
      code: "AccessDenied";
      /** The request as IAM judges it, and the rule that refused it (for the rehearsal's log and audit). */
      request: IamRequest;
      rule: "policy" | "missing-key-without-list";
    };

const FORWARD: S3Verdict = { kind: "forward" };

function s3Request(call: S3Call, scope: S3Scope): IamRequest | undefined {
  const request = iamRequestOf({ ...call, ...scope });
  return request?.action.startsWith("s3:") ? request : undefined;
}

/** Before the emulator sees the call: refused when the policy, conditions included, does not allow it. */
export function judgeRequest(call: S3Call, policy: PolicyDocument, scope: S3Scope): S3Verdict {
  const request = s3Request(call, scope);
  if (!request) return FORWARD;
  return evaluatePolicy(policy, request) === "allowed"
    ? FORWARD
    : { kind: "refuse", status: 403, code: "AccessDenied", request, rule: "policy" };
}

/** Whether the caller holds s3:ListBucket on the bucket for a request that carries no s3:prefix (a GET's context). */
export function canListBucket(policy: PolicyDocument, bucket: string): boolean {
  return (
    evaluatePolicy(policy, { action: "s3:ListBucket", resource: `arn:aws:s3:::${bucket}`, context: {} }) === "allowed"
  );
}

/** After the emulator answered: a missing key (404) becomes 403 AccessDenied for a caller without s3:ListBucket. */
export function judgeAnswer(call: S3Call, policy: PolicyDocument, scope: S3Scope, upstreamStatus: number): S3Verdict {
  if (upstreamStatus !== 404) return FORWARD;
  const request = s3Request(call, scope);
  if (request?.action !== "s3:GetObject") return FORWARD;
  const bucket = call.path.split("/")[1]!;
  if (canListBucket(policy, bucket)) return FORWARD;
  return { kind: "refuse", status: 403, code: "AccessDenied", request, rule: "missing-key-without-list" };
}

/** S3's error document (S3 API reference, "Error responses"); a HEAD answer carries no body. */
export function accessDeniedBody(requestId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>${requestId}</RequestId><HostId>rehearsal</HostId></Error>`;
}
