import { PutObjectCommand } from "@aws-sdk/client-s3";
import { GetParameterCommand, PutParameterCommand, SSMClient } from "@aws-sdk/client-ssm";
import type { PolicyDocument } from "../infra/policies.js";
import { evaluatePolicy } from "../infra/policy-eval.js";
import type { Credentials, Emulator } from "./emulator.js";

export interface IamProbe {
  role: string;
  probe: string;
  expected: "allowed" | "denied";
  /** "emulator": moto judged it; "policy": the rehearsal's evaluator did (a Condition moto ignores). */
  judgedBy: "emulator" | "policy";
  outcome: "allowed" | "denied";
  ok: boolean;
}

const denied = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.$metadata?.httpStatusCode === 403 || /AccessDenied|UnrecognizedClient/.test(e.name ?? "");
};

/**
 * What each role must NOT be able to do, tried with its own credentials against the emulator (DESIGN.md: clients
 * write only under their own run's prefix; secrets are per run): writing under another run's prefix, reading
 * another run's parameter, and (judged by the policy's s3:prefix condition, which moto ignores) listing another
 * run's prefix; and the run's own parameter, which must be readable.
 */
export async function probeRoles(
  emulator: Emulator,
  o: {
    bucket: string;
    runId: string;
    region: string;
    account: string;
    roles: Array<{ role: string; credentials: Credentials; policy: PolicyDocument }>;
  },
): Promise<IamProbe[]> {
  const other = `${o.runId}-other`;
  const admin = new SSMClient({ region: o.region, endpoint: emulator.endpoint, credentials: emulator.admin });
  await admin.send(
    new PutParameterCommand({
      Name: `/ycsb-lab/${other}/admin-password`,
      Value: "not yours",
      Type: "SecureString",
      Overwrite: true,
    }),
  );
  await admin.send(
    new PutParameterCommand({
      Name: `/ycsb-lab/${o.runId}/probe`,
      Value: "yours",
      Type: "SecureString",
      Overwrite: true,
    }),
  );
  admin.destroy();
  const probes: IamProbe[] = [];
  for (const r of o.roles) {
    const s3 = emulator.s3(r.credentials);
    const ssm = new SSMClient({ region: o.region, endpoint: emulator.endpoint, credentials: r.credentials });
    const attempt = async (probe: string, expected: "allowed" | "denied", fn: () => Promise<unknown>) => {
      let outcome: "allowed" | "denied" = "allowed";
      try {
        await fn();
      } catch (err) {
        if (!denied(err)) throw new Error(`IAM probe "${probe}" as ${r.role}: ${(err as Error).message}`);
        outcome = "denied";
      }
      probes.push({ role: r.role, probe, expected, judgedBy: "emulator", outcome, ok: outcome === expected });
    };
    await attempt(`write s3://${o.bucket}/runs/${other}/probe.json`, "denied", () =>
      s3.send(new PutObjectCommand({ Bucket: o.bucket, Key: `runs/${other}/probe.json`, Body: "{}" })),
    );
    await attempt(`read parameter /ycsb-lab/${other}/admin-password`, "denied", () =>
      ssm.send(new GetParameterCommand({ Name: `/ycsb-lab/${other}/admin-password`, WithDecryption: true })),
    );
    await attempt(`read parameter /ycsb-lab/${o.runId}/probe`, "allowed", () =>
      ssm.send(new GetParameterCommand({ Name: `/ycsb-lab/${o.runId}/probe`, WithDecryption: true })),
    );
    const list = evaluatePolicy(r.policy, {
      action: "s3:ListBucket",
      resource: `arn:aws:s3:::${o.bucket}`,
      context: { "s3:prefix": `runs/${other}/` },
    });
    probes.push({
      role: r.role,
      probe: `list s3://${o.bucket}/runs/${other}/`,
      expected: "denied",
      judgedBy: "policy",
      outcome: list === "allowed" ? "allowed" : "denied",
      ok: list !== "allowed",
    });
    s3.destroy();
    ssm.destroy();
  }
  return probes;
}
