import type { PolicyDocument } from "../infra/policies.js";
import { evaluatePolicy, iamRequestOf } from "../infra/policy-eval.js";
import type { RecordedCall } from "./recording-proxy.js";

export interface IamFinding {
  role: string;
  call: string;
  /** What moto answered (403: it enforced a denial) and what the policy says including its conditions. */
  status: number;
  decision: string;
}

export interface IamAudit {
  calls: number;
  byRole: Record<string, number>;
  /** Calls the emulator refused (403) or the policy, conditions included, does not allow. */
  findings: IamFinding[];
}

/**
 * Every call the instances made, judged by their role's policy as IAM would (infra/policy-eval.ts), beside what
 * the emulator answered: moto judges actions and resources; the conditions (the client's s3:prefix) are judged here.
 */
export function auditCalls(
  calls: RecordedCall[],
  roles: Map<string, { role: string; policy: PolicyDocument }>,
  region: string,
  account: string,
): IamAudit {
  const findings: IamFinding[] = [];
  const byRole: Record<string, number> = {};
  let counted = 0;
  for (const c of calls) {
    const who = roles.get(c.accessKeyId);
    if (!who) continue;
    counted++;
    byRole[who.role] = (byRole[who.role] ?? 0) + 1;
    const request = iamRequestOf({
      method: c.method,
      path: c.path,
      query: c.query,
      ...(c.target ? { target: c.target } : {}),
      ...(c.body ? { body: c.body } : {}),
      region,
      account,
    });
    const decision = request ? evaluatePolicy(who.policy, request) : "unmodelled";
    const label = request
      ? `${request.action} ${request.resource}${request.context?.["s3:prefix"] !== undefined ? ` prefix=${request.context["s3:prefix"]}` : ""}`
      : `${c.method} ${c.path}`;
    // S3's 403 for a missing key read without s3:ListBucket is its answer to an allowed call, not a refusal.
    const refused = c.status === 403 && c.rule !== "missing-key-without-list";
    if (refused || decision !== "allowed") findings.push({ role: who.role, call: label, status: c.status, decision });
  }
  return { calls: counted, byRole, findings };
}
