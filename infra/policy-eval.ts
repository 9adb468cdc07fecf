import type { PolicyDocument } from "./policies.js";

/**
 * IAM's evaluation of one identity policy for one request, pure: an explicit Deny wins, then any Allow, else the
 * implicit deny (IAM user guide, "Policy evaluation logic"). Actions match case-insensitively, resources
 * case-sensitively, with `*` and `?` wildcards. Conditions: the String operators this project's policies use; any
 * other operator throws rather than being ignored. It judges what an emulator cannot: moto enforces actions and
 * resources but not Condition blocks (the client role's `s3:prefix` on ListBucket).
 */
export interface IamRequest {
  action: string;
  resource: string;
  /** Condition keys of the request, e.g. {"s3:prefix": "runs/r1/barriers/"}. */
  context?: Record<string, string>;
}

export type IamDecision = "allowed" | "denied" | "implicit-deny";

function wildcard(pattern: string, value: string, ignoreCase: boolean): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
    ignoreCase ? "i" : "",
  );
  return re.test(value);
}

function conditionHolds(operator: string, key: string, values: string[], context: Record<string, string>): boolean {
  const actual = context[key];
  switch (operator) {
    case "StringEquals":
      return actual !== undefined && values.includes(actual);
    case "StringNotEquals":
      return actual === undefined || !values.includes(actual);
    case "StringLike":
      return actual !== undefined && values.some((v) => wildcard(v, actual, false));
    case "StringNotLike":
      return actual === undefined || !values.some((v) => wildcard(v, actual, false));
    default:
      throw new Error(`policy evaluation: condition operator ${operator} is not modelled`);
  }
}

export function evaluatePolicy(policy: PolicyDocument, request: IamRequest): IamDecision {
  let allowed = false;
  for (const s of policy.Statement) {
    if (!s.Action.some((a) => wildcard(a, request.action, true))) continue;
    if (!s.Resource.some((r) => wildcard(r, request.resource, false))) continue;
    const conditions = Object.entries(s.Condition ?? {}).flatMap(([op, keys]) =>
      Object.entries(keys).map(([key, values]) => ({ op, key, values })),
    );
    if (!conditions.every((c) => conditionHolds(c.op, c.key, c.values, request.context ?? {}))) continue;
    if (s.Effect === "Deny") return "denied";
    allowed = true;
  }
  return allowed ? "allowed" : "implicit-deny";
}

/**
 * The IAM request an S3 REST call (path-style, as the SDK sends it to an endpoint override) or an SSM JSON call
 * makes, from its method, path, query and target header. Undefined for calls this project never makes.
 */
export function iamRequestOf(call: {
  method: string;
  path: string;
  query: Record<string, string>;
  target?: string;
  body?: string;
  region: string;
  account: string;
}): IamRequest | undefined {
  if (call.target?.startsWith("AmazonSSM.")) {
    const op = call.target.slice("AmazonSSM.".length);
    const name = (JSON.parse(call.body || "{}") as { Name?: string }).Name ?? "";
    return {
      action: `ssm:${op}`,
      resource: `arn:aws:ssm:${call.region}:${call.account}:parameter${name.startsWith("/") ? name : `/${name}`}`,
    };
  }
  if (call.target?.startsWith("secretsmanager.")) {
    const op = call.target.slice("secretsmanager.".length);
    const id = (JSON.parse(call.body || "{}") as { SecretId?: string }).SecretId ?? "";
    // A secret named by name is judged as its ARN without the random suffix (IAM matches the policy's ARN pattern).
    return {
      action: `secretsmanager:${op}`,
      resource: id.startsWith("arn:") ? id : `arn:aws:secretsmanager:${call.region}:${call.account}:secret:${id}`,
    };
  }
  const [, bucket, ...rest] = call.path.split("/");
  if (!bucket) return undefined;
  const key = rest.map((p) => decodeURIComponent(p)).join("/");
  if (!key) {
    if (call.method === "GET" || call.method === "HEAD") {
      if ("location" in call.query) return { action: "s3:GetBucketLocation", resource: `arn:aws:s3:::${bucket}` };
      return {
        action: "s3:ListBucket",
        resource: `arn:aws:s3:::${bucket}`,
        context: { ...(call.query.prefix !== undefined ? { "s3:prefix": call.query.prefix } : {}) },
      };
    }
    return undefined;
  }
  const object = `arn:aws:s3:::${bucket}/${key}`;
  switch (call.method) {
    case "GET":
    case "HEAD":
      return { action: "s3:GetObject", resource: object };
    case "PUT":
    case "POST":
      return { action: "s3:PutObject", resource: object };
    case "DELETE":
      return { action: "uploadId" in call.query ? "s3:AbortMultipartUpload" : "s3:DeleteObject", resource: object };
    default:
      return undefined;
  }
}
