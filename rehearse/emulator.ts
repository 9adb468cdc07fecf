import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CreateAccessKeyCommand, CreateUserCommand, IAMClient, PutUserPolicyCommand } from "@aws-sdk/client-iam";
import { CreateBucketCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { PolicyDocument } from "../infra/policies.js";
import { freePort, tcpOpen } from "../runner/boot/processes.js";
import { REPO_ROOT } from "../runner/java-artifacts.js";

/**
 * The S3 emulator of a rehearsal: moto on loopback with IAM enforced. The first three requests (the admin user, its
 * policy and its key) are the only unauthenticated ones (INITIAL_NO_AUTH_ACTION_COUNT); every later request is
 * signed and judged by moto against the caller's policies, so each instance runs with exactly its role's policy.
 * scripts/moto-server.py starts moto with a fix for its signature check of query values holding "/".
 */
export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface Emulator {
  endpoint: string;
  region: string;
  admin: Credentials;
  s3(credentials?: Credentials): S3Client;
  /** An IAM user standing for a role: its inline policy is the role's. */
  userFor(name: string, policy: PolicyDocument): Promise<Credentials>;
  /** Replaces the inline policy of a user made by userFor (a drill takes a permission away). */
  setPolicy(name: string, policy: PolicyDocument): Promise<void>;
  stop(): Promise<void>;
}

const ADMIN_POLICY = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "*", Resource: "*" }] };

async function waitOpen(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await tcpOpen("127.0.0.1", port))) {
    if (child.exitCode !== null)
      throw new Error(
        `moto exited with code ${child.exitCode} while starting (is moto installed? scripts/setup-moto.sh)`,
      );
    if (Date.now() > deadline) throw new Error(`moto did not open 127.0.0.1:${port} in ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startEmulator(region: string, log: (line: string) => void = () => {}): Promise<Emulator> {
  const port = await freePort();
  const child = spawn(
    "python3",
    [join(REPO_ROOT, "scripts", "moto-server.py"), "-H", "127.0.0.1", "-p", String(port)],
    {
      env: { ...process.env, INITIAL_NO_AUTH_ACTION_COUNT: "3" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const stderr: string[] = [];
  child.stderr!.setEncoding("utf8").on("data", (c: string) => {
    stderr.push(c);
    if (stderr.length > 200) stderr.shift();
  });
  await waitOpen(port, child, 30_000).catch((err: Error) => {
    throw new Error(`${err.message}\n${stderr.join("").slice(-2000)}`);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  // The three unauthenticated requests: the admin user that signs everything after them.
  const bootstrap = new IAMClient({
    region,
    endpoint,
    credentials: { accessKeyId: "bootstrap", secretAccessKey: "bootstrap" },
  });
  await bootstrap.send(new CreateUserCommand({ UserName: "rehearsal-admin" }));
  await bootstrap.send(
    new PutUserPolicyCommand({
      UserName: "rehearsal-admin",
      PolicyName: "admin",
      PolicyDocument: JSON.stringify(ADMIN_POLICY),
    }),
  );
  const key = (await bootstrap.send(new CreateAccessKeyCommand({ UserName: "rehearsal-admin" }))).AccessKey!;
  bootstrap.destroy();
  const admin = { accessKeyId: key.AccessKeyId!, secretAccessKey: key.SecretAccessKey! };
  const iam = new IAMClient({ region, endpoint, credentials: admin });
  log(`moto on ${endpoint}, IAM enforced`);
  return {
    endpoint,
    region,
    admin,
    s3: (credentials = admin) => new S3Client({ region, endpoint, forcePathStyle: true, credentials }),
    async userFor(name, policy) {
      await iam.send(new CreateUserCommand({ UserName: name }));
      await iam.send(
        new PutUserPolicyCommand({
          UserName: name,
          PolicyName: `${name}-policy`,
          PolicyDocument: JSON.stringify(policy),
        }),
      );
      const k = (await iam.send(new CreateAccessKeyCommand({ UserName: name }))).AccessKey!;
      return { accessKeyId: k.AccessKeyId!, secretAccessKey: k.SecretAccessKey! };
    },
    async setPolicy(name, policy) {
      await iam.send(
        new PutUserPolicyCommand({
          UserName: name,
          PolicyName: `${name}-policy`,
          PolicyDocument: JSON.stringify(policy),
        }),
      );
    },
    async stop() {
      iam.destroy();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        // A server that does not end on SIGTERM (a request still open) is killed: a rehearsal's stop never waits
        // without a bound (a test's afterAll once timed out after 600 s stopping eight rehearsals).
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** The stack's bucket with what the stack uploads into it (plan, cluster description, kit). */
export async function createBucketWith(
  emulator: Emulator,
  bucket: string,
  uploads: Array<{ key: string; content?: string; file?: string }>,
): Promise<void> {
  const s3 = emulator.s3();
  // A second rehearsal of the same stack on a shared emulator finds its bucket there (S3: BucketAlreadyOwnedByYou).
  await s3.send(new CreateBucketCommand({ Bucket: bucket })).catch((err: { name?: string }) => {
    if (err.name !== "BucketAlreadyOwnedByYou" && err.name !== "BucketAlreadyExists") throw err;
  });
  for (const u of uploads) {
    const body = u.content !== undefined ? u.content : readFileSync(u.file!);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: u.key, Body: body }));
  }
  s3.destroy();
}
