import { describe, expect, it } from "vitest";
import { configFromEnv, loadEnv } from "../api/config.js";
import { serviceEnvironment } from "../cli/dashboard-boot.js";
import { iamRequestOf } from "../infra/policy-eval.js";
import { databaseUrl, parseServiceDescription, type ServiceDescription } from "../model/service-description.js";

const description: ServiceDescription = {
  serviceId: "team-dash",
  region: "eu-west-1",
  port: 8080,
  importBuckets: [{ bucket: "scenario-a-results", prefix: "" }, { bucket: "scenario-b-results", prefix: "nightly/" }],
  pollSeconds: 60,
  writeTokenSecretArn: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:ycsb-lab/team-dash/write-token-AbCdEf",
  protectReads: true,
  readTokenSecretArn: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:ycsb-lab/team-dash/read-token-AbCdEf",
  database: { host: "db.abc.eu-west-1.rds.amazonaws.com", port: 5432, name: "ycsb_lab", secretArn: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:rds!db-1-XyZ123", sslMode: "require" },
};

describe("the dashboard's boot: from its service description to what `serve` is given", () => {
  it("builds a database URL with the secret's credentials encoded (RDS generates passwords with URL characters)", () => {
    const url = databaseUrl(description.database, { username: "ycsb_lab", password: "p@ss/w:rd#?&" });
    const parsed = new URL(url);
    expect(decodeURIComponent(parsed.password)).toBe("p@ss/w:rd#?&");
    expect(parsed.hostname).toBe("db.abc.eu-west-1.rds.amazonaws.com");
    expect(parsed.pathname).toBe("/ycsb_lab");
    expect(parsed.searchParams.get("sslmode")).toBe("no-verify");
  });

  it("gives the service an environment its own schema accepts: every bucket polled, reads protected, the tokens", () => {
    const env = serviceEnvironment(description, { writeToken: "w".repeat(40), readToken: "r".repeat(40), databaseUrl: "postgresql://u:p@h:5432/ycsb_lab" }, { host: "0.0.0.0" });
    const config = configFromEnv(loadEnv(env));
    expect(config.s3.poll).toEqual({ bucket: "scenario-a-results", prefix: "", seconds: 60, more: [{ bucket: "scenario-b-results", prefix: "nightly/" }] });
    expect(config).toMatchObject({ protectReads: true, token: "w".repeat(40), readToken: "r".repeat(40), databaseUrl: "postgresql://u:p@h:5432/ycsb_lab" });
    expect(config.s3.region).toBe("eu-west-1");
  });

  it("refuses a service description that is not one, naming the field", () => {
    expect(() => parseServiceDescription(JSON.stringify({ ...description, database: { ...description.database, port: "5432" } }), "runs/x/service.json")).toThrow(/runs\/x\/service.json: not a service description: \/database\/port/);
  });

  it("the IAM audit reads a Secrets Manager call as the secret it names", () => {
    const call = { method: "POST", path: "/", query: {}, target: "secretsmanager.GetSecretValue", body: JSON.stringify({ SecretId: description.writeTokenSecretArn }), region: "eu-west-1", account: "123456789012" };
    expect(iamRequestOf(call)).toEqual({ action: "secretsmanager:GetSecretValue", resource: description.writeTokenSecretArn });
    expect(iamRequestOf({ ...call, body: JSON.stringify({ SecretId: "by-name" }) })?.resource).toBe("arn:aws:secretsmanager:eu-west-1:123456789012:secret:by-name");
  });
});
