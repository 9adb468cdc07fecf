import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { instanceName } from "../model/instance-status.js";
import {
  databaseUrl,
  parseServiceDescription,
  type ServiceDescription,
  serviceDescriptionKey,
} from "../model/service-description.js";
import { bootEnvironment, rehearsalNotes } from "../runner/boot/environment.js";
import { Reporter } from "../runner/boot/reporter.js";
import { RunObjects } from "../runner/boot/run-objects.js";
import { currentKit, RDS_CA_BUNDLE } from "../runner/kit-layout.js";
import { isPermanent } from "../runner/retry.js";
import { databaseSecret, SecretBackedPool } from "./database-secret.js";

export interface DashboardBootOptions {
  index: number;
  /** s3://bucket/runs/<serviceId>/ in the service's own bucket. */
  runUrl: string;
  ycsbLabVersion: string;
  s3Endpoint?: string;
  env?: NodeJS.ProcessEnv;
  /** Resolves when the service should stop (default: SIGTERM or SIGINT, as systemd stops it). */
  stopSignal?: Promise<void>;
}

/** A secret's string, naming the secret when it cannot be read (the role's scope is the usual reason). */
async function secretString(client: SecretsManagerClient, arn: string, what: string): Promise<string> {
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    if (!out.SecretString) throw new Error("no string value");
    return out.SecretString;
  } catch (err) {
    const e = err as Error & { name?: string };
    const permanent = ["AccessDeniedException", "ResourceNotFoundException"].includes(e.name ?? "");
    throw Object.assign(
      new Error(`${what} (${arn}): ${e.name ?? "Error"}: ${e.message}`),
      permanent ? { permanent: true } : {},
    );
  }
}

/** Where the service listens: every interface on EC2 (its security group decides who reaches it); a loopback address in a rehearsal. */
function listenAddress(env: NodeJS.ProcessEnv, rehearsal: boolean): string {
  const asked = env.YCSB_LAB_LISTEN_ADDRESS;
  if (!asked) return "0.0.0.0";
  if (!rehearsal)
    throw Object.assign(
      new Error("YCSB_LAB_LISTEN_ADDRESS: a rehearsal setting, refused without YCSB_LAB_REHEARSAL=1"),
      { permanent: true },
    );
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(asked))
    throw Object.assign(new Error(`YCSB_LAB_LISTEN_ADDRESS: a loopback address, got "${asked}"`), { permanent: true });
  return asked;
}

/** The environment `ycsb-lab serve` would be given for this description (pure: tested on its own). */
export function serviceEnvironment(
  d: ServiceDescription,
  secrets: { writeToken: string; readToken?: string; databaseUrl: string },
  o: { host: string; s3Endpoint?: string },
): Record<string, string> {
  return {
    HOST: o.host,
    PORT: String(d.port),
    DATABASE_URL: secrets.databaseUrl,
    YCSB_LAB_TOKEN: secrets.writeToken,
    YCSB_LAB_PROTECT_READS: d.protectReads ? "1" : "0",
    ...(secrets.readToken ? { YCSB_LAB_READ_TOKEN: secrets.readToken } : {}),
    S3_REGION: d.region,
    ...(o.s3Endpoint ? { S3_ENDPOINT: o.s3Endpoint } : {}),
    ...(d.importBuckets.length
      ? { S3_POLL_BUCKETS: d.importBuckets.map((b) => `${b.bucket}${b.prefix ? `/${b.prefix}` : ""}`).join(",") }
      : {}),
    S3_POLL_SECONDS: String(d.pollSeconds),
    // A load balancer in front (X-Forwarded-For from the VPC's addresses only) keeps the rate limit per viewer.
    TRUST_PROXY: "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16",
  };
}

/**
 * `ycsb-lab boot --role dashboard`: the dashboard service's boot (infra/dashboard-service.ts). Reads its service
 * description from its bucket, the write token and the database credentials from Secrets Manager, applies the
 * committed migrations (a new release migrates the database at its first start) and serves the API and dashboard,
 * importing every results bucket it was given by polling. Runs until systemd stops it.
 */
export async function bootDashboard(o: DashboardBootOptions): Promise<number> {
  const processEnv = o.env ?? process.env;
  const env = bootEnvironment(processEnv);
  const s3Endpoint = o.s3Endpoint ?? processEnv.AWS_ENDPOINT_URL_S3 ?? processEnv.AWS_ENDPOINT_URL;
  const objects = await RunObjects.open(o.runUrl, env, { ...(s3Endpoint ? { endpoint: s3Endpoint } : {}) });
  const kit = currentKit();
  const notes = rehearsalNotes(env);
  const name = instanceName("dashboard", o.index);
  const reporter = new Reporter(objects, "dashboard", o.index, join(env.home, "logs", `${name}.log`), {
    ...(notes.length ? { rehearsal: notes } : {}),
  });
  for (const note of notes) reporter.log(note);
  await reporter.stage(
    "booting",
    `ycsb-lab ${o.ycsbLabVersion}${kit ? ` (kit ${kit.root})` : " (checkout)"}, service ${objects.runId}`,
  );
  let app: { close(): Promise<unknown> } | undefined;
  let closeDatabase: (() => Promise<void>) | undefined;
  let secrets: SecretsManagerClient | undefined;
  try {
    const key = serviceDescriptionKey(objects.runId);
    const body = await objects.store.get(key);
    if (!body)
      throw Object.assign(
        new Error(`${objects.store.uri}/${key}: no such object (was the dashboard stack deployed?)`),
        { permanent: true },
      );
    const d = parseServiceDescription(body.toString("utf8"), key);
    const secretsEndpoint = processEnv.AWS_ENDPOINT_URL_SECRETS_MANAGER ?? processEnv.AWS_ENDPOINT_URL;
    secrets = new SecretsManagerClient({ region: d.region, ...(secretsEndpoint ? { endpoint: secretsEndpoint } : {}) });
    const writeToken = (await secretString(secrets, d.writeTokenSecretArn, "the write token")).trim();
    const readToken = d.readTokenSecretArn
      ? (await secretString(secrets, d.readTokenSecretArn, "the read token")).trim()
      : undefined;
    const readCredentials = databaseCredentials(secrets, d.database.secretArn);
    const credentials = await readCredentials();
    await reporter.stage(
      "installed",
      `secrets read; database ${d.database.host}:${d.database.port}/${d.database.name} (TLS ${d.database.sslMode}); applying the committed migrations`,
    );
    const host = listenAddress(processEnv, env.rehearsal);
    const serveEnv = serviceEnvironment(
      d,
      {
        writeToken,
        ...(readToken ? { readToken } : {}),
        databaseUrl: databaseUrl(d.database, { username: credentials.username, password: "" }),
      },
      { host, ...(s3Endpoint ? { s3Endpoint } : {}) },
    );
    // The password follows Secrets Manager: read again when the database refuses it (RDS rotates it every 7 days).
    const secret = databaseSecret(credentials.password, async () => (await readCredentials()).password, {
      log: (line) => reporter.log(line),
    });
    const pool = new SecretBackedPool(
      {
        host: d.database.host,
        port: d.database.port,
        database: d.database.name,
        user: credentials.username,
        ssl: tlsOptions(d.database.sslMode, d.database.host),
        max: 10,
        connectionTimeoutMillis: 5_000,
        statement_timeout: 60_000,
      },
      secret,
    );
    const [{ startServer }, { openDatabase }] = await Promise.all([
      import("../api/server.js"),
      import("../api/db/open.js"),
    ]);
    const database = await openDatabase({ pool });
    closeDatabase = () => database.close();
    const started = await startServer(serveEnv, { database });
    app = started.app;
    const applied = started.app.database.appliedMigrations;
    await reporter.stage(
      "ready",
      `serving on ${started.url} (reads ${d.protectReads ? "need a token" : "open to whoever reaches the port"}); migrations applied now: ${applied.length ? applied.join(", ") : "none (up to date)"}; importing ${d.importBuckets.length} bucket(s) every ${d.pollSeconds} s`,
    );
    await (o.stopSignal ??
      new Promise<void>((resolve) => {
        process.once("SIGTERM", () => resolve());
        process.once("SIGINT", () => resolve());
      }));
    await app.close();
    await closeDatabase?.();
    secrets?.destroy();
    return 0;
  } catch (err) {
    await app?.close().catch(() => {});
    await closeDatabase?.().catch(() => {});
    secrets?.destroy();
    await reporter.failed((err as Error).message);
    return isPermanent(err) ? 78 : 1;
  }
}

/** The database credentials as RDS keeps them in its managed secret ({"username", "password"}), read each time asked. */
function databaseCredentials(
  secrets: SecretsManagerClient,
  arn: string,
): () => Promise<{ username: string; password: string }> {
  return async () => {
    const c = JSON.parse(await secretString(secrets, arn, "the database credentials")) as {
      username?: string;
      password?: string;
    };
    if (!c.username || c.password === undefined)
      throw Object.assign(new Error(`the database credentials (${arn}): no "username" and "password"`), {
        permanent: true,
      });
    return { username: c.username, password: c.password };
  };
}

/** Where the RDS CA bundle is: at the dashboard kit's root, or in a checkout's kit/ folder. */
export function rdsCaBundlePath(): string {
  const kit = currentKit();
  return kit ? join(kit.root, RDS_CA_BUNDLE) : fileURLToPath(new URL(`../kit/${RDS_CA_BUNDLE}`, import.meta.url));
}

/**
 * TLS to the database as the service description asks: "verify-full" checks the chain against the RDS CA bundle and
 * the certificate's name against the host (node's tls.checkServerIdentity); "require" only encrypts.
 */
export function tlsOptions(
  mode: "verify-full" | "require" | "disable",
  host: string,
  bundle = rdsCaBundlePath(),
): false | { ca?: string; rejectUnauthorized: boolean; servername?: string } {
  if (mode === "disable") return false;
  if (mode === "require") return { rejectUnauthorized: false };
  if (!existsSync(bundle))
    throw Object.assign(
      new Error(`sslMode verify-full: no RDS CA bundle at ${bundle} (the dashboard kit carries ${RDS_CA_BUNDLE})`),
      { permanent: true },
    );
  return { ca: readFileSync(bundle, "utf8"), rejectUnauthorized: true, servername: host };
}
