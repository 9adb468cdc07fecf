import { describe, expect, it } from "vitest";
import { configFromEnv, loadEnv } from "../../api/config.js";
import { serviceEnvironment } from "../../cli/dashboard-boot.js";
import { iamRequestOf } from "../../infra/policy-eval.js";
import { databaseUrl, parseServiceDescription, type ServiceDescription } from "../../model/service-description.js";

const description: ServiceDescription = {
  serviceId: "team-dash",
  region: "eu-west-1",
  port: 8080,
  importBuckets: [
    { bucket: "scenario-a-results", prefix: "" },
    { bucket: "scenario-b-results", prefix: "nightly/" },
  ],
  pollSeconds: 60,
  writeTokenSecretArn: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:ycsb-lab/team-dash/write-token-AbCdEf",
  protectReads: true,
  readTokenSecretArn: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:ycsb-lab/team-dash/read-token-AbCdEf",
  database: {
    host: "db.abc.eu-west-1.rds.amazonaws.com",
    port: 5432,
    name: "ycsb_lab",
    secretArn: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:rds!db-1-XyZ123",
    sslMode: "require",
  },
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
    const env = serviceEnvironment(
      description,
      { writeToken: "w".repeat(40), readToken: "r".repeat(40), databaseUrl: "postgresql://u:p@h:5432/ycsb_lab" },
      { host: "0.0.0.0" },
    );
    const config = configFromEnv(loadEnv(env));
    expect(config.s3.poll).toEqual({
      bucket: "scenario-a-results",
      prefix: "",
      seconds: 60,
      more: [{ bucket: "scenario-b-results", prefix: "nightly/" }],
    });
    expect(config).toMatchObject({
      protectReads: true,
      token: "w".repeat(40),
      readToken: "r".repeat(40),
      databaseUrl: "postgresql://u:p@h:5432/ycsb_lab",
    });
    expect(config.s3.region).toBe("eu-west-1");
  });

  it("refuses a service description that is not one, naming the field", () => {
    expect(() =>
      parseServiceDescription(
        JSON.stringify({ ...description, database: { ...description.database, port: "5432" } }),
        "runs/x/service.json",
      ),
    ).toThrow(/runs\/x\/service.json: not a service description: \/database\/port/);
  });

  it("the IAM audit reads a Secrets Manager call as the secret it names", () => {
    const call = {
      method: "POST",
      path: "/",
      query: {},
      target: "secretsmanager.GetSecretValue",
      body: JSON.stringify({ SecretId: description.writeTokenSecretArn }),
      region: "eu-west-1",
      account: "123456789012",
    };
    expect(iamRequestOf(call)).toEqual({
      action: "secretsmanager:GetSecretValue",
      resource: description.writeTokenSecretArn,
    });
    expect(iamRequestOf({ ...call, body: JSON.stringify({ SecretId: "by-name" }) })?.resource).toBe(
      "arn:aws:secretsmanager:eu-west-1:123456789012:secret:by-name",
    );
  });
});

describe("the dashboard's database connection: RDS's certificate checked, its rotated password followed", () => {
  it("verify-full checks the chain against the RDS CA bundle in the kit and the name against the host", async () => {
    const { tlsOptions, rdsCaBundlePath } = await import("../../cli/dashboard-boot.js");
    const tls = tlsOptions("verify-full", "db.abc.eu-west-1.rds.amazonaws.com");
    expect(tls).toMatchObject({ rejectUnauthorized: true, servername: "db.abc.eu-west-1.rds.amazonaws.com" });
    const { X509Certificate } = await import("node:crypto");
    const pems =
      (tls as { ca: string }).ca.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    // AWS's RDS roots of 2024 on (RSA2048, RSA4096, ECC384 G1, valid until 2061 and 2121) for the stacks' regions.
    const subjects = pems.map((p) => new X509Certificate(p).subject);
    for (const region of ["us-east-1", "eu-west-1"])
      expect(subjects.some((s) => s.includes(`Amazon RDS ${region} Root CA RSA2048 G1`))).toBe(true);
    expect(rdsCaBundlePath()).toMatch(/kit\/rds-global-bundle\.pem$/);
    expect(() => tlsOptions("verify-full", "h", "/nonexistent/bundle.pem")).toThrow(
      /sslMode verify-full: no RDS CA bundle at \/nonexistent\/bundle\.pem/,
    );
    expect(tlsOptions("require", "h")).toEqual({ rejectUnauthorized: false });
    expect(tlsOptions("disable", "h")).toBe(false);
  });

  it("reads the secret again on an authentication failure, at most once per interval", async () => {
    const { databaseSecret, isAuthFailure } = await import("../../cli/database-secret.js");
    let reads = 0;
    const secret = databaseSecret("old", async () => (++reads === 1 ? "new" : "newer"), { minIntervalMs: 60_000 });
    expect(secret.password()).toBe("old");
    expect(await secret.refresh()).toBe(true);
    expect(secret.password()).toBe("new");
    expect(await secret.refresh()).toBe(false);
    expect(reads).toBe(1);
    expect(isAuthFailure({ code: "28P01" })).toBe(true);
    expect(isAuthFailure({ code: "08006" })).toBe(false);
  });
});
