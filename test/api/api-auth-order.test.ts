import { connect } from "node:net";
import { deflateSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { auth, fixtureDocument, testConfig } from "./api-helpers.js";

/** A compressed V2 histogram envelope around any inflated bytes (HdrHistogram's cookie and length header). */
function envelope(inflated: Buffer): string {
  const compressed = deflateSync(inflated, { level: 9 });
  const outer = Buffer.alloc(8 + compressed.length);
  outer.writeUInt32BE(0x1c849304, 0);
  outer.writeInt32BE(compressed.length, 4);
  compressed.copy(outer, 8);
  return outer.toString("base64");
}
function v2Header(digits: number, highest: number, payloadLength: number): Buffer {
  const h = Buffer.alloc(40);
  h.writeUInt32BE(0x1c849303, 0);
  h.writeInt32BE(payloadLength, 4);
  h.writeInt32BE(digits, 12);
  h.writeBigInt64BE(1n, 16);
  h.writeBigInt64BE(BigInt(highest), 24);
  h.writeDoubleBE(1, 32);
  return h;
}

// The token is checked before a body is read (DESIGN.md), and what a body may make the server decode is bounded.
describe("authentication before the body, bounded decoding", () => {
  let db: Database;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    db = await openDatabase({});
    app = await buildApp(testConfig({ bodyLimit: 4 * 1024 * 1024 }), { database: db, logLevel: "silent" });
    const address = await app.listen({ host: "127.0.0.1", port: 0 });
    port = Number(new URL(address).port);
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("a write without a token is 401 whatever its body: unparsable, over the limit, or never sent", async () => {
    const junk = await app.inject({
      method: "POST",
      url: "/api/v1/results",
      payload: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(junk.statusCode).toBe(401);
    const huge = await app.inject({
      method: "POST",
      url: "/api/v1/results",
      payload: "x".repeat(5 * 1024 * 1024),
      headers: { "content-type": "application/json" },
    });
    expect(huge.statusCode).toBe(401);
    const s3 = await app.inject({
      method: "POST",
      url: "/api/v1/ingest/s3",
      payload: "[",
      headers: { "content-type": "application/json" },
    });
    expect(s3.statusCode).toBe(401);

    // A real connection announcing 3 MB and sending 1 KB: the answer comes without the rest, and the server hangs up.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      let text = "";
      socket.on("data", (d) => (text += d.toString("latin1")));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
      socket.write(
        `POST /api/v1/results HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n`,
      );
      socket.write(`[${" ".repeat(1023)}`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.toLowerCase()).toContain("connection: close");
  });

  it("histograms that would inflate past the limit, or ask for millions of buckets, are 400 naming each, not decoded", async () => {
    const bomb = envelope(Buffer.concat([v2Header(3, 3_600_000_000, 64 * 2 ** 20), Buffer.alloc(64 * 2 ** 20, 1)]));
    const greedy = envelope(Buffer.concat([v2Header(5, 2 ** 52, 1), Buffer.from([2])]));
    const docs = [0, 1].map((c) => ({
      ...fixtureDocument({ runId: "bounded", client: c as 0 | 1 }),
      // Client 1: a greedy histogram of an operation it ran, and 50 of operations it never ran (refused undecoded).
      hdrHistograms:
        c === 0
          ? { READ: bomb }
          : { UPDATE: greedy, ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`OP${i}`, greedy])) },
    }));
    const r = await app.inject({ method: "POST", url: "/api/v1/results", payload: docs, headers: auth });
    expect(r.statusCode, r.body.slice(0, 500)).toBe(400);
    const fields = r.json().fields as { path: string; message: string }[];
    expect(fields.find((f) => f.path === "/0/hdrHistograms/READ")?.message).toMatch(/inflates to more than \d+ bytes/);
    expect(fields.find((f) => f.path === "/1/hdrHistograms/UPDATE")?.message).toMatch(
      /needs \d+ buckets, more than 1048576/,
    );
    expect(fields.find((f) => f.path === "/1/hdrHistograms/OP0")?.message).toMatch(/no operation group OP0/);
    expect(await db.prisma.clientResult.count()).toBe(0);
    // The service still answers.
    expect((await app.inject({ url: "/health" })).statusCode).toBe(200);
  });
});
