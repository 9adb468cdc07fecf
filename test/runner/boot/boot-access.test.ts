import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBucketWith, type Emulator, startEmulator } from "../../../rehearse/emulator.js";
import { startRecordingProxy } from "../../../rehearse/recording-proxy.js";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../../../bin/ycsb-lab.js", import.meta.url));
const BUCKET = "ycsb-access-probe";

/** `ycsb-lab boot` as a client instance, with the given credentials and S3 endpoint; never throws. */
async function bootClient(
  endpoint: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  extra: Record<string, string> = {},
) {
  const home = mkdtempSync(join(tmpdir(), "boot-access-"));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    YCSB_LAB_HOME: home,
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_EC2_METADATA_DISABLED: "true",
    ...extra,
  };
  try {
    const out = await run(
      process.execPath,
      [CLI, "boot", "--role", "client", "--index", "0", "--run", `s3://${BUCKET}/runs/r1/`],
      { env, timeout: 180_000 },
    );
    return { code: 0, output: out.stdout + out.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

describe("a client that is denied or cannot reach the bucket fails naming the key and the error", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator("us-east-1");
    await createBucketWith(emulator, BUCKET, [
      { key: "runs/r1/cluster.json", content: "{}" },
      { key: "runs/r1/plan.json", content: "{}" },
    ]);
  });
  afterAll(async () => emulator?.stop());

  it("denied: fails at once (no retries) with exit 78, naming the key and AccessDenied", async () => {
    const proxy = await startRecordingProxy(emulator.endpoint);
    // A role whose policy names another run's prefix only.
    const credentials = await emulator.userFor("other-run-client", {
      Version: "2012-10-17",
      Statement: [
        { Sid: "Other", Effect: "Allow", Action: ["s3:GetObject"], Resource: [`arn:aws:s3:::${BUCKET}/runs/r2/*`] },
      ],
    });
    const r = await bootClient(proxy.endpoint, credentials);
    await proxy.stop();
    expect(r.code).toBe(78);
    expect(r.output).toMatch(/runs\/r1\/(cluster|plan)\.json: AccessDenied/);
    // One request per object: a refusal is not retried.
    const reads = proxy.calls.filter((c) => c.method === "GET" && /runs\/r1\/(cluster|plan)\.json$/.test(c.path));
    expect(reads.length).toBe(2);
    expect(reads.every((c) => c.status === 403)).toBe(true);
  }, 300_000);

  it("unreachable: retries as long as YCSB_LAB_READ_RETRY_SECONDS says (a minute by default), then fails naming the key and the connection error", async () => {
    // Accepts and drops every connection, counting them: an S3 endpoint that is there but never answers.
    let connections = 0;
    const server = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const r = await bootClient(`http://127.0.0.1:${port}`, emulator.admin, { YCSB_LAB_READ_RETRY_SECONDS: "10" });
    server.close();
    expect(r.code).toBe(1);
    const gaveUp = /read runs\/r1\/(cluster|plan)\.json: gave up after \d+ attempts in (\d+) ms/.exec(r.output);
    expect(gaveUp, r.output).not.toBeNull();
    // It gave up on the deadline it was given, well before the default minute (by construction: no sleep past it).
    expect(Number(gaveUp![2])).toBeLessThan(60_000);
    expect(connections).toBeGreaterThan(4);
  }, 240_000);

  it("ycsb-lab status shows the fleet and a failed instance's log tail (exit 3)", async () => {
    const s3 = emulator.s3();
    const put = (key: string, body: string) => s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
    await put(
      "runs/r1/status/node-0.json",
      JSON.stringify({
        instance: "node-0",
        role: "data",
        index: 0,
        stage: "failed",
        at: new Date().toISOString(),
        detail: "cassandra (pid 42) exited with code 1 while serving the run",
        logTail: true,
      }),
    );
    await put("runs/r1/status/node-0.log", "INFO starting\nERROR Exception encountered during startup: disk full\n");
    await put(
      "runs/r1/status/client-0.json",
      JSON.stringify({
        instance: "client-0",
        role: "client",
        index: 0,
        stage: "running",
        at: new Date().toISOString(),
        phase: { position: 3, of: 4, name: "a" },
        detail: "workload",
      }),
    );
    s3.destroy();
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: emulator.admin.accessKeyId,
      AWS_SECRET_ACCESS_KEY: emulator.admin.secretAccessKey,
      AWS_EC2_METADATA_DISABLED: "true",
    };
    const r = await run(
      process.execPath,
      [CLI, "status", "--results", `s3://${BUCKET}/runs/r1/`, "--s3-endpoint", emulator.endpoint],
      { env },
    ).then(
      (o) => ({ code: 0, out: o.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^node-0\s+failed\s+\d+s\s+cassandra \(pid 42\) exited with code 1/m);
    expect(r.out).toMatch(/^client-0\s+running 3\/4/m);
    expect(r.out).toContain("ERROR Exception encountered during startup: disk full");
  }, 300_000);
});
