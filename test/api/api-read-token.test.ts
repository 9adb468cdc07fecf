import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { configFromEnv, loadEnv } from "../../api/config.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { TOKEN, testConfig } from "./api-helpers.js";

const READ = "read-token-0123456789abcdef";
const basic = (password: string) => `Basic ${Buffer.from(`viewer:${password}`).toString("base64")}`;

describe("protected reads: a read token, as Bearer or as HTTP Basic (what a browser sends after asking)", () => {
  let db: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await openDatabase({});
    app = await buildApp(testConfig({ protectReads: true, readToken: READ }), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("refuses a read without a token and asks for Basic credentials, so a browser prompts", async () => {
    const r = await app.inject({ method: "GET", url: "/api/v1/runs" });
    expect(r.statusCode).toBe(401);
    expect(r.headers["www-authenticate"]).toMatch(/^Basic realm="ycsb-lab"/);
  });

  it.each([
    ["the read token as Bearer", `Bearer ${READ}`],
    ["the read token as Basic password", basic(READ)],
    ["the write token as Bearer", `Bearer ${TOKEN}`],
  ])("answers a read with %s", async (_what, authorization) => {
    expect((await app.inject({ method: "GET", url: "/api/v1/runs", headers: { authorization } })).statusCode).toBe(200);
  });

  it("protects the dashboard page too, keeps /health open for a load balancer", async () => {
    expect((await app.inject({ method: "GET", url: "/" })).statusCode).toBe(401);
    expect((await app.inject({ method: "GET", url: "/", headers: { authorization: basic(READ) } })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  it("a read token never writes, and a wrong token never reads", async () => {
    const write = await app.inject({
      method: "POST",
      url: "/api/v1/results",
      headers: { authorization: `Bearer ${READ}`, "content-type": "application/json" },
      payload: "[]",
    });
    expect(write.statusCode).toBe(401);
    expect(
      (
        await app.inject({
          method: "GET",
          url: "/api/v1/runs",
          headers: { authorization: basic("not-the-token-at-all") },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe("S3 polling of several buckets (the dashboard service imports every scenario's bucket)", () => {
  it("reads S3_POLL_BUCKET and S3_POLL_BUCKETS into one poll", () => {
    const c = configFromEnv(
      loadEnv({
        S3_POLL_BUCKET: "first-bucket",
        S3_POLL_BUCKETS: "second-bucket,third-bucket/nightly/",
        S3_POLL_SECONDS: "10",
      }),
    );
    expect(c.s3.poll).toEqual({
      bucket: "first-bucket",
      prefix: "",
      seconds: 10,
      more: [
        { bucket: "second-bucket", prefix: "" },
        { bucket: "third-bucket", prefix: "nightly/" },
      ],
    });
    expect(configFromEnv(loadEnv({ S3_POLL_BUCKETS: "only-bucket" })).s3.poll).toEqual({
      bucket: "only-bucket",
      prefix: "",
      seconds: 60,
    });
    expect(() => loadEnv({ S3_POLL_BUCKETS: "Bad_Bucket" })).toThrow(/S3_POLL_BUCKETS/);
  });
});
