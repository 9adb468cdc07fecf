import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CreateSecretCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import pg from "pg";
import type { PolicyDocument } from "../infra/policies.js";
import type { InstanceStatus } from "../model/instance-status.js";
import { parseServiceDescription, serviceDescriptionKey } from "../model/service-description.js";
import { freePort } from "../runner/boot/processes.js";
import { RunObjects } from "../runner/boot/run-objects.js";
import { REPO_ROOT } from "../runner/java-artifacts.js";
import { stackConfigFromFiles } from "../stacks/config-file.js";
import { serviceKit } from "../stacks/kit.js";
import { createBucketWith, type Emulator, startEmulator } from "./emulator.js";
import { evaluateStack } from "./evaluate.js";
import type { Machine } from "./machine.js";
import { type RehearsalResult, type RehearseOptions, type ResultsServiceContext, rehearse } from "./rehearse.js";
import type { ResultsService } from "./results-service.js";

export interface DashboardRehearsalOptions
  extends Omit<RehearseOptions, "stack" | "emulator" | "resultsService" | "databaseUrl"> {
  /** The scenario stack rehearsed into the dashboard. @default "quickstart" */
  scenarioStack?: string;
  /** The PostgreSQL standing for RDS (a database of its own is created in it). @default the test PostgreSQL (scripts/setup-postgres.sh) */
  postgresUrl?: string;
}

export interface DashboardRehearsalResult extends RehearsalResult {
  /** The dashboard service's own stages, as it reported them under runs/<serviceId>/status/. */
  dashboard: { serviceId: string; url: string; statuses: InstanceStatus[]; database: string };
}

/** moto judges Secrets Manager calls against the resource "*" only: the user standing for the role gets the secret
 * statements widened to it, and the project's own audit (infra/policy-eval.ts) judges the exact ARNs. */
function widenSecretResources(policy: PolicyDocument): PolicyDocument {
  return {
    ...policy,
    Statement: policy.Statement.map((s) =>
      s.Action.every((a) => a.startsWith("secretsmanager:")) ? { ...s, Resource: ["*"] } : s,
    ),
  };
}

async function freshDatabase(base: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * `ycsb-lab rehearse --stack dashboard`: the dashboard stack's service booted from its rendered user-data on this
 * machine, and a scenario stack (quickstart by default) rehearsed into it through the emulated bucket. The dashboard
 * stack is evaluated under mocks with the scenario's bucket as its only import; moto holds the service's bucket (the
 * dashboard kit, the service description), its secrets (the write token, and the database credentials RDS would
 * manage) and a user with the service role's policy; the service's instance boots as an OS container from its exact
 * user-data, as the run's do. Swapped, and said so: RDS is a PostgreSQL on this machine (its address and port written
 * into the emulated service description, TLS off), the service listens on a loopback address.
 */
export async function rehearseDashboard(o: DashboardRehearsalOptions = {}): Promise<DashboardRehearsalResult> {
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const prefix = o.loopbackPrefix ?? "127.0.12";
  const stamp = Date.now().toString(36);
  const serviceId = `dashboard-${stamp}`;
  const root = o.root ?? join(REPO_ROOT, ".local", "rehearsals", serviceId);
  mkdirSync(root, { recursive: true });
  const base =
    o.postgresUrl ??
    execFileSync("bash", [join(REPO_ROOT, "scripts", "setup-postgres.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
  const databaseName = `dashboard_${stamp}`.replace(/[^a-z0-9_]/g, "_");
  const databaseUrl = await freshDatabase(base, databaseName);
  const pgUrl = new URL(databaseUrl);
  log(`swap: RDS PostgreSQL -> PostgreSQL ${pgUrl.hostname}:${pgUrl.port}/${databaseName} on this machine (TLS off)`);

  const scenarioStack = o.scenarioStack ?? "quickstart";
  const emulator: Emulator = await startEmulator(stackConfigFromFiles(scenarioStack)("aws:region") ?? "us-east-1", log);
  let instance: Machine | undefined;
  let dashboardUrl = "";
  let statuses: InstanceStatus[] = [];
  let objects: RunObjects | undefined;
  const startDashboard = async (ctx: ResultsServiceContext): Promise<ResultsService> => {
    const port = await freePort();
    const get = stackConfigFromFiles("dashboard", {
      "ycsb-lab:importBuckets": ctx.bucket,
      "ycsb-lab:port": String(port),
      "ycsb-lab:serviceId": serviceId,
      "ycsb-lab:pollSeconds": "5",
    });
    const kit = await serviceKit(get);
    ctx.log(`dashboard kit ${kit.sha256.slice(0, 12)} (${kit.path})`);
    const stack = await evaluateStack("dashboard", get, kit);
    const spec = stack.instances.find((i) => i.role === "dashboard");
    if (!spec) throw new Error("rehearse: the dashboard stack launches no dashboard instance");
    const key = serviceDescriptionKey(serviceId);
    const described = stack.uploads.find((u) => u.key === key);
    if (!described?.content) throw new Error(`rehearse: the dashboard stack uploads no ${key}`);
    const d = parseServiceDescription(described.content, key);
    // The one swap of the service description: where the database answers.
    const swapped = {
      ...d,
      database: {
        ...d.database,
        host: pgUrl.hostname,
        port: Number(pgUrl.port || 5432),
        name: databaseName,
        sslMode: "disable" as const,
      },
    };
    await createBucketWith(
      emulator,
      stack.bucket,
      stack.uploads.map((u) => (u.key === key ? { key, content: JSON.stringify(swapped, null, 2) } : u)),
    );
    // The secrets as AWS would hold them: the tokens (the stack's secret versions) and RDS's managed master secret.
    const secrets = new SecretsManagerClient({
      region: stack.region,
      endpoint: emulator.endpoint,
      credentials: emulator.admin,
    });
    const writeToken = randomBytes(24).toString("base64url");
    const nameOf = (arn: string) => arn.split(":").pop()!;
    await secrets.send(new CreateSecretCommand({ Name: nameOf(d.writeTokenSecretArn), SecretString: writeToken }));
    if (d.readTokenSecretArn)
      await secrets.send(
        new CreateSecretCommand({
          Name: nameOf(d.readTokenSecretArn),
          SecretString: randomBytes(24).toString("base64url"),
        }),
      );
    await secrets.send(
      new CreateSecretCommand({
        Name: nameOf(d.database.secretArn),
        SecretString: JSON.stringify({
          username: decodeURIComponent(pgUrl.username) || "postgres",
          password: decodeURIComponent(pgUrl.password) || "rehearsal",
        }),
      }),
    );
    secrets.destroy();
    const policy = stack.policies.get(spec.roleName);
    if (!policy) throw new Error(`rehearse: no policy for the dashboard's role ${spec.roleName}`);
    const credentials = await emulator.userFor(spec.roleName, widenSecretResources(policy));
    ctx.track(credentials, spec.roleName, policy);
    ctx.log(
      `dashboard: bucket ${stack.bucket}, secrets in the emulator's Secrets Manager, role ${spec.roleName} (importing ${ctx.bucket} only)`,
    );
    const address = `${prefix}.50`;
    // The instance, an OS container like the run's, listens on its own loopback address (EC2: its private IP).
    instance = ctx.bootService(spec, {
      credentials,
      buckets: [stack.bucket, ctx.bucket],
      address,
      bootEnvironment: { YCSB_LAB_LISTEN_ADDRESS: address },
    });
    ctx.log(`dashboard-0: booting (listening on ${address}:${port}), console ${instance.consoleLog}`);
    objects = await RunObjects.open(`s3://${stack.bucket}/runs/${serviceId}/`, undefined, {
      endpoint: emulator.endpoint,
      region: stack.region,
      credentials: emulator.admin,
    });
    const deadline = Date.now() + 300_000;
    for (;;) {
      const status = (await objects.statuses().catch(() => new Map<string, InstanceStatus>())).get("dashboard-0");
      if (status?.stage === "ready") {
        ctx.log(`dashboard-0 ready: ${status.detail ?? ""}`);
        break;
      }
      if (status?.stage === "failed" || !instance.running || Date.now() > deadline) {
        throw new Error(
          `the dashboard service did not become ready (${status?.stage ?? "no status"}: ${status?.detail ?? ""}); console:\n${instance.tail(20)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    dashboardUrl = `http://${address}:${port}`;
    return {
      url: dashboardUrl,
      token: writeToken,
      async get<T>(path: string) {
        const r = await fetch(`${dashboardUrl}${path}`);
        if (r.status === 404) return undefined;
        if (!r.ok) throw new Error(`GET ${path}: HTTP ${r.status}`);
        return (await r.json()) as T;
      },
      stop: async () => {
        statuses = [...((await objects?.statuses().catch(() => undefined))?.values() ?? [])];
        await instance?.stop();
      },
    };
  };

  let result: RehearsalResult;
  try {
    result = await rehearse({
      ...o,
      stack: scenarioStack,
      loopbackPrefix: prefix,
      root: join(root, "scenario"),
      emulator,
      resultsService: startDashboard,
      log,
    });
  } catch (err) {
    await instance?.stop();
    await emulator.stop();
    throw err;
  }
  const dropDatabase = async () => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  };
  statuses = [...((await objects?.statuses().catch(() => undefined))?.values() ?? [])];
  const dashboardFailed = statuses.find((s) => s.stage === "failed");
  const problems = [
    ...result.problems,
    ...(dashboardFailed ? [`dashboard-0 failed: ${dashboardFailed.detail ?? ""}`] : []),
  ];
  return {
    ...result,
    ok: result.ok && problems.length === 0,
    problems,
    dashboard: { serviceId, url: dashboardUrl, statuses, database: databaseName },
    stop: async () => {
      await result.stop();
      await instance?.stop();
      await emulator.stop();
      await dropDatabase().catch(() => {});
      if (problems.length === 0 && !o.keepFiles) rmSync(root, { recursive: true, force: true });
      else if (!o.keepFiles) instance?.dropSoftware();
    },
  };
}
