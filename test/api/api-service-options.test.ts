import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { exposureWarnings, isLoopbackHost } from "../../api/exposure.js";
import { startServer } from "../../api/server.js";
import { testConfig } from "./api-helpers.js";

/** Sends `head` and then nothing more; resolves with what the server answered when it closed the connection. */
function stall(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (d) => (text += d.toString("latin1")));
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
    socket.write(head);
  });
}

describe("service options: slow clients, proxies, headers, the write token, exposure", () => {
  let db: Database;
  let app: FastifyInstance;
  let port: number;
  const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-options-"));

  beforeAll(async () => {
    db = await openDatabase({});
    app = await buildApp(
      testConfig({ requestTimeoutMs: 1_500, rateLimit: { max: 3, timeWindow: "1 minute" }, trustProxy: ["127.0.0.1"] }),
      { database: db, logLevel: "silent" },
    );
    port = Number(new URL(await app.listen({ host: "127.0.0.1", port: 0 })).port);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a client that never finishes its body, or its headers, is answered 408 and disconnected", async () => {
    const body = await stall(
      port,
      "POST /api/v1/results HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-token-0123456789abcdef\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{",
    );
    expect(body).toMatch(/^HTTP\/1\.1 408 /);
    const headers = await stall(port, "GET /api/v1/runs HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    expect(headers).toMatch(/^HTTP\/1\.1 408 /);
  }, 300_000);

  it("behind a trusted proxy the rate limit is per client (X-Forwarded-For), not per proxy", async () => {
    // Each a new answer to compute: what the budget counts.
    let n = 0;
    const from = (ip: string) =>
      app.inject({ url: `/api/v1/reference?seed=n${n++}`, headers: { "x-forwarded-for": ip } });
    for (let i = 0; i < 3; i++) expect((await from("198.51.100.7")).statusCode).toBe(200);
    const refused = await from("198.51.100.7");
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await from("198.51.100.8")).statusCode).toBe(200);
  });

  it("answers already computed cost no budget: a team of viewers behind one address is never refused them", async () => {
    const viewer = () =>
      app.inject({ url: "/api/v1/reference?seed=002", headers: { "x-forwarded-for": "198.51.100.9" } });
    const first = await viewer();
    expect(first.statusCode).toBe(200);
    // Sixteen viewers opening the same views, far past the budget of 3 requests a minute.
    for (let i = 0; i < 48; i++) {
      const r = await viewer();
      expect(r.statusCode).toBe(200);
      expect(r.headers["x-cache"]).toBe("hit");
    }
  });

  it("every answer carries the same security headers (a page, the API, /health, a 404, a refused write)", async () => {
    const answers = await Promise.all([
      app.inject({ url: "/" }),
      app.inject({ url: "/api/v1/facets" }),
      app.inject({ url: "/health" }),
      app.inject({ url: "/api/v1/no-such-route" }),
      app.inject({ method: "POST", url: "/api/v1/results", payload: [] }),
    ]);
    const security = (h: Record<string, unknown>) =>
      Object.fromEntries(
        [
          "content-security-policy",
          "cross-origin-opener-policy",
          "cross-origin-resource-policy",
          "origin-agent-cluster",
          "referrer-policy",
          "strict-transport-security",
          "x-content-type-options",
          "x-dns-prefetch-control",
          "x-download-options",
          "x-frame-options",
          "x-permitted-cross-domain-policies",
          "x-xss-protection",
        ].map((k) => [k, h[k]]),
      );
    const first = security(answers[0]!.headers);
    expect(Object.values(first).every((v) => typeof v === "string" && v.length > 0)).toBe(true);
    expect(first["x-frame-options"]).toBe("SAMEORIGIN");
    for (const a of answers) {
      expect(security(a.headers)).toEqual(first);
      expect(a.headers["x-powered-by"]).toBeUndefined();
    }
  });

  it("the CSP does not upgrade requests to https (the service speaks plain HTTP)", async () => {
    const csp = (await app.inject({ url: "/" })).headers["content-security-policy"] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("serving beyond loopback with open reads warns; loopback or protected reads do not", () => {
    expect(isLoopbackHost("127.0.15.1")).toBe(true);
    expect(isLoopbackHost("::1")).toBe(true);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
    expect(isLoopbackHost("10.0.0.5")).toBe(false);
    expect(exposureWarnings({ host: "0.0.0.0", protectReads: false })[0]).toMatch(/YCSB_LAB_PROTECT_READS=1/);
    expect(exposureWarnings({ host: "0.0.0.0", protectReads: true })).toEqual([]);
    expect(exposureWarnings({ host: "127.0.0.1", protectReads: false })).toEqual([]);
  });

  it("the generated write token is kept: the same after a restart", async () => {
    const env = {
      HOST: "127.0.15.1",
      PORT: "0",
      PGLITE_DIR: join(dir, "pglite"),
      YCSB_LAB_TOKEN_FILE: join(dir, "token"),
      LOG_LEVEL: "silent",
      YCSB_LAB_TOKEN: "",
    };
    const first = await startServer(env);
    await first.app.close();
    const second = await startServer(env);
    await second.app.close();
    expect(first.tokenFrom).toBe("new file");
    expect(second.tokenFrom).toBe("file");
    expect(second.token).toBe(first.token);
    expect(first.token.length).toBeGreaterThanOrEqual(16);
  }, 300_000);
});
