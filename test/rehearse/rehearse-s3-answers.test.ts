import {
  S3Client as Client,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientPolicy, dataNodePolicy, type PolicyDocument } from "../../infra/policies.js";
import { runLayout } from "../../infra/run-layout.js";
import { artifactKey, kitKey, readyMarkerKey } from "../../model/results-layout.js";
import { type Credentials, createBucketWith, type Emulator, startEmulator } from "../../rehearse/emulator.js";
import { type RecordingProxy, startRecordingProxy } from "../../rehearse/recording-proxy.js";
import { passBarrier } from "../../runner/barrier.js";
import { RunObjects } from "../../runner/boot/run-objects.js";
import { S3Store } from "../../runner/results-store-s3.js";

/**
 * The rehearsal's S3 (moto behind the recording proxy) answers as S3 does under the roles' policies: a GET of a key
 * that does not exist yet is 403 AccessDenied without s3:ListBucket (AWS's GetObject reference, "Permissions"), and a
 * listing outside the role's s3:prefix condition is refused. The instances' polls (the readiness marker, a barrier
 * arrival, the engine mirror) read a missing key as missing under exactly those answers.
 */
const BUCKET = "ycsb-s3-answers";
const REGION = "us-east-1";
const ACCOUNT = "123456789012";
const scope = {
  bucketName: BUCKET,
  accountId: ACCOUNT,
  region: REGION,
  runId: "r1",
  ...runLayout("r1"),
  kitKey: kitKey("a".repeat(64)),
};
const getOnly: PolicyDocument = {
  Version: "2012-10-17",
  Statement: [
    { Sid: "Get", Effect: "Allow", Action: ["s3:GetObject"], Resource: [`arn:aws:s3:::${BUCKET}/runs/r1/*`] },
  ],
};

let emulator: Emulator;
let proxy: RecordingProxy;
const policies = new Map<string, PolicyDocument>();
const clients: S3Client[] = [];

async function principal(name: string, policy: PolicyDocument): Promise<Credentials> {
  const c = await emulator.userFor(name, policy);
  policies.set(c.accessKeyId, policy);
  return c;
}
const s3 = (c: Credentials) => {
  const client = new Client({
    region: REGION,
    endpoint: proxy.endpoint,
    forcePathStyle: true,
    credentials: c,
    maxAttempts: 1,
  });
  clients.push(client);
  return client;
};
const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { $metadata?: { httpStatusCode?: number }; name?: string }) => `${e.$metadata?.httpStatusCode} ${e.name}`,
  );

beforeAll(async () => {
  emulator = await startEmulator(REGION);
  await createBucketWith(emulator, BUCKET, [{ key: "runs/r1/cluster.json", content: "{}" }]);
  proxy = await startRecordingProxy(emulator.endpoint, {
    policyOf: (key) => policies.get(key),
    scope: { region: REGION, account: ACCOUNT },
  });
}, 300_000);
afterAll(async () => {
  for (const c of clients) c.destroy();
  await proxy?.stop();
  await emulator?.stop();
});

describe("S3's answers under IAM, through the rehearsal's proxy", () => {
  it("a missing key without s3:ListBucket: 403 AccessDenied (moto alone says 404)", async () => {
    const c = await principal("get-only", getOnly);
    expect(
      await statusOf(s3(c).send(new GetObjectCommand({ Bucket: BUCKET, Key: "runs/r1/cluster/ready.json" }))),
    ).toBe("403 AccessDenied");
    expect(
      await statusOf(emulator.s3(c).send(new GetObjectCommand({ Bucket: BUCKET, Key: "runs/r1/cluster/ready.json" }))),
    ).toBe("404 NoSuchKey");
    expect(await statusOf(s3(c).send(new GetObjectCommand({ Bucket: BUCKET, Key: "runs/r1/cluster.json" })))).toBe(200);
    expect(proxy.calls.find((x) => x.path.endsWith("/ready.json"))).toMatchObject({
      status: 403,
      rule: "missing-key-without-list",
    });
  });

  it("the same key with an unconditional s3:ListBucket: 404 NoSuchKey", async () => {
    const c = await principal("get-and-list", {
      ...getOnly,
      Statement: [
        ...getOnly.Statement,
        { Sid: "List", Effect: "Allow", Action: ["s3:ListBucket"], Resource: [`arn:aws:s3:::${BUCKET}`] },
      ],
    });
    expect(
      await statusOf(s3(c).send(new GetObjectCommand({ Bucket: BUCKET, Key: "runs/r1/cluster/ready.json" }))),
    ).toBe("404 NoSuchKey");
  });

  it("a listing outside the role's s3:prefix condition is refused (moto ignores conditions)", async () => {
    const c = await principal("node-lister", dataNodePolicy(scope));
    expect(await statusOf(s3(c).send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "runs/r1/cluster/" })))).toBe(
      200,
    );
    expect(await statusOf(s3(c).send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "runs/r2/" })))).toBe(
      "403 AccessDenied",
    );
    expect(await statusOf(emulator.s3(c).send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "runs/r2/" })))).toBe(
      200,
    );
  });
});

describe("the instances' polls under those answers, with the stack's own policies", () => {
  it("a non-leader data node waits for the readiness marker instead of failing at its first look", async () => {
    const c = await principal("data-node", dataNodePolicy(scope));
    const objects = await RunObjects.open(`s3://${BUCKET}/runs/r1/`, undefined, {
      endpoint: proxy.endpoint,
      region: REGION,
      credentials: c,
    });
    expect(await objects.readyMarker()).toBeUndefined();
    expect(await objects.nodeCommand()).toBeUndefined();
    const marker = {
      engine: "cassandra",
      nodes: 1,
      preset: "balanced",
      formedAt: new Date().toISOString(),
      connection: { hosts: "10.42.1.10" },
      steps: ["formed"],
    };
    await emulator
      .s3()
      .send(new PutObjectCommand({ Bucket: BUCKET, Key: readyMarkerKey("r1"), Body: JSON.stringify(marker) }));
    expect((await objects.readyMarker())?.formedAt).toBe(marker.formedAt);
    // The run's engine mirror, before the leader put anything there.
    expect(await objects.store.download(artifactKey("r1", "c".repeat(128), "engine.tar.gz"), "/dev/null")).toBe(false);
  });

  it("a client waits for the marker, and arrives at its first barrier (its own arrival read first)", async () => {
    const c = await principal("client-1", clientPolicy(scope, 1));
    const objects = await RunObjects.open(`s3://${BUCKET}/runs/r1/`, undefined, {
      endpoint: proxy.endpoint,
      region: REGION,
      credentials: c,
    });
    const store = new S3Store(BUCKET, "", { endpoint: proxy.endpoint, region: REGION, credentials: c });
    await emulator.s3().send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: "runs/r1/barriers/0-load/client-0.json",
        Body: JSON.stringify({ client: 0, arrivedAt: new Date().toISOString(), status: "ready", stepOutcomes: {} }),
      }),
    );
    const arrivals = await passBarrier(
      store,
      "r1",
      { index: 0, name: "load" },
      { client: 1, stepOutcomes: {} },
      { clients: 2, timeoutMs: 20_000, pollMs: 100 },
    );
    expect(arrivals.map((a) => a.client)).toEqual([0, 1]);
    expect(await objects.readyMarker()).toBeDefined();
    store.destroy();
  });

  it("a refusal stays a refusal: a key the role may not read fails naming AccessDenied", async () => {
    const c = await principal("client-2", clientPolicy(scope, 2));
    const store = new S3Store(BUCKET, "", { endpoint: proxy.endpoint, region: REGION, credentials: c });
    await expect(store.get("runs/r9/plan.json")).rejects.toThrow(
      /get s3:\/\/ycsb-s3-answers\/runs\/r9\/plan\.json: AccessDenied/,
    );
    store.destroy();
  });
});
