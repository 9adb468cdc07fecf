import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateSecretCommand, PutSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootDashboard } from "../../cli/dashboard-boot.js";
import { type ServiceDescription, serviceDescriptionKey } from "../../model/service-description.js";
import { createBucketWith, type Emulator, startEmulator } from "../../rehearse/emulator.js";
import { freePort } from "../../runner/boot/processes.js";
import { RunObjects } from "../../runner/boot/run-objects.js";
import { type PasswordPostgres, startPasswordPostgres } from "../support/password-postgres.js";

/**
 * The dashboard service's boot (`ycsb-lab boot --role dashboard`, cli/dashboard-boot.ts) over a PostgreSQL that checks
 * passwords, its credentials in the emulator's Secrets Manager as RDS keeps its managed master secret. RDS rotates
 * that secret (every 7 days by default): the password changes on the server and in the secret, and connections the
 * service opens afterwards must use the new one. Here the rotation happens under the running service, its open
 * connections are ended (as its pool's idle ones would be), and the service must keep serving.
 */
const REGION = "us-east-1";
const BUCKET = "dash-rotation";
const SERVICE = "dash-rotation";
const ROLE = "dash_owner";

let postgres: PasswordPostgres;
let emulator: Emulator;
let home: string;
let url = "";
let stop: () => void = () => {};
let booted: Promise<number>;
const saved = { ...process.env };

const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: postgres.adminUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
};

beforeAll(async () => {
  postgres = await startPasswordPostgres();
  await admin(`CREATE ROLE ${ROLE} LOGIN PASSWORD 'first-password'`);
  await admin(`CREATE DATABASE ${ROLE} OWNER ${ROLE}`);
  emulator = await startEmulator(REGION);
  const secrets = new SecretsManagerClient({
    region: REGION,
    endpoint: emulator.endpoint,
    credentials: emulator.admin,
  });
  const token = await secrets.send(
    new CreateSecretCommand({ Name: "ycsb-lab/dash-rotation/write-token-x", SecretString: "w".repeat(40) }),
  );
  const db = await secrets.send(
    new CreateSecretCommand({
      Name: "rds!db-dash-rotation",
      SecretString: JSON.stringify({ username: ROLE, password: "first-password" }),
    }),
  );
  secrets.destroy();
  const port = await freePort();
  const description: ServiceDescription = {
    serviceId: SERVICE,
    region: REGION,
    port,
    importBuckets: [],
    pollSeconds: 60,
    writeTokenSecretArn: token.ARN!,
    protectReads: false,
    database: { host: postgres.host, port: postgres.port, name: ROLE, secretArn: db.ARN!, sslMode: "disable" },
  };
  await createBucketWith(emulator, BUCKET, [
    { key: serviceDescriptionKey(SERVICE), content: JSON.stringify(description) },
  ]);
  // The SDK's default chain, as an instance role would give it.
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: emulator.admin.accessKeyId,
    AWS_SECRET_ACCESS_KEY: emulator.admin.secretAccessKey,
    AWS_REGION: REGION,
    AWS_EC2_METADATA_DISABLED: "true",
  });
  home = mkdtempSync(join(tmpdir(), "dash-rotation-"));
  const address = "127.0.0.1";
  booted = bootDashboard({
    index: 0,
    runUrl: `s3://${BUCKET}/runs/${SERVICE}/`,
    ycsbLabVersion: "test",
    s3Endpoint: emulator.endpoint,
    env: {
      YCSB_LAB_HOME: home,
      YCSB_LAB_REHEARSAL: "1",
      YCSB_LAB_LISTEN_ADDRESS: address,
      AWS_ENDPOINT_URL: emulator.endpoint,
      LOG_LEVEL: "warn",
    },
    stopSignal: new Promise<void>((resolve) => (stop = resolve)),
  });
  const objects = await RunObjects.open(`s3://${BUCKET}/runs/${SERVICE}/`, undefined, {
    endpoint: emulator.endpoint,
    region: REGION,
    credentials: emulator.admin,
  });
  for (let i = 0; i < 240; i++) {
    const status = (await objects.statuses()).get("dashboard-0");
    if (status?.stage === "ready") break;
    if (status?.stage === "failed") throw new Error(`dashboard failed: ${status.detail}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  url = `http://${address}:${port}`;
}, 180_000);

afterAll(async () => {
  stop();
  await booted?.catch(() => 1);
  await emulator?.stop();
  postgres?.stop();
  rmSync(home, { recursive: true, force: true });
  process.env = saved;
});

describe("the dashboard service when RDS rotates its database password", () => {
  it("keeps serving: a connection refused with the old password reads the secret again", async () => {
    expect((await fetch(`${url}/health`)).status).toBe(200);
    // The rotation: the server's password and the secret change together; connections open so far are ended.
    await admin(`ALTER ROLE ${ROLE} PASSWORD 'second-password'`);
    const secrets = new SecretsManagerClient({
      region: REGION,
      endpoint: emulator.endpoint,
      credentials: emulator.admin,
    });
    await secrets.send(
      new PutSecretValueCommand({
        SecretId: "rds!db-dash-rotation",
        SecretString: JSON.stringify({ username: ROLE, password: "second-password" }),
      }),
    );
    secrets.destroy();
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '${ROLE}'`);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await fetch(`${url}/health`)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    // A query no answer is cached for (the API refuses parameters it does not know): it reaches the database.
    const runs = await fetch(`${url}/api/v1/runs?limit=7`);
    expect(runs.status).toBe(200);
  });
});
