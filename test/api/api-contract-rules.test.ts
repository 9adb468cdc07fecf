import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { auth, testConfig } from "./api-helpers.js";

const EMOJI = "\u{1F600}";

type Schema = {
  type?: string;
  pattern?: string;
  maxLength?: number;
  enum?: unknown[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
};
type Operation = {
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

// Each rule the API enforces on a request is stated in the OpenAPI document, so a request the document calls valid is
// taken (the failures Schemathesis found: test/api/api-schemathesis.test.ts runs it against the whole document).
describe("the OpenAPI document states the rules the API enforces", () => {
  let db: Database;
  let app: FastifyInstance;
  let doc: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    db = await openDatabase({});
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
    doc = (await app.inject({ method: "GET", url: "/docs/json" })).json();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const get = (url: string) => app.inject({ method: "GET", url });

  it("a string's maxLength counts characters (code points): 10 emoji are a valid seed of at most 10", async () => {
    const r = await get(`/api/v1/reference/?seed=${encodeURIComponent(EMOJI.repeat(10))}`);
    expect(r.statusCode, r.body).toBe(200);
    const over = await get(`/api/v1/reference/?seed=${encodeURIComponent(EMOJI.repeat(11))}`);
    expect(over.statusCode).toBe(400);
    expect(over.json().fields).toEqual([
      { path: "/seed", message: "expected a string of at most 10 characters (Unicode code points)" },
    ]);
  });

  it("every free query and path value states that U+0000 and invisible characters are refused (a pattern)", async () => {
    const free: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) {
          const strings = [p.schema, ...(p.schema.anyOf ?? [])].filter(
            (s) => s.type === "string" && !s.enum && !("const" in s),
          );
          for (const s of strings) {
            free.push(`${method} ${path} ${p.name}`);
            expect(s.pattern, `${method} ${path} ${p.name}`).toBeDefined();
            const re = new RegExp(s.pattern!);
            for (const bad of ["a\u0000b", "api-test\u200b", "\u202Eevil"])
              expect(re.test(bad), `${method} ${path} ${p.name}`).toBe(false);
          }
        }
      }
    }
    expect(free).toContain("get /api/v1/sweeps/ workload");
    expect(free).toContain("get /api/v1/runs/{id} id");
    // And the API answers as the document says: a NUL in a query value is a 400 naming it.
    const r = await get("/api/v1/sweeps/?workload=a%00b");
    expect(r.statusCode).toBe(400);
    expect(r.json().fields[0].path).toBe("/workload");
  });

  it("POST /results documents a measured source only: published figures come from the reference loader", () => {
    const body = doc.paths["/api/v1/results/"]!.post!.requestBody!.content["application/json"]!.schema;
    const one = body.anyOf![0]!;
    const source = one.properties!.run!.properties!.source as Schema & {
      properties: { kind: { enum?: string[] } & Record<string, unknown> };
    };
    expect(JSON.stringify(source)).not.toContain("published");
    expect(JSON.stringify(source)).toContain("measured");
  });

  it("GET /compare's runs states its ids as a pattern, and its longest valid value is answered, not a 431", async () => {
    const runs = doc.paths["/api/v1/compare/"]!.get!.parameters!.find((p) => p.name === "runs")!.schema;
    const re = new RegExp(runs.pattern!);
    expect(re.test("run-a, run-b")).toBe(true);
    expect(re.test("é".repeat(100))).toBe(false);
    expect(re.test(Array.from({ length: 21 }, (_, i) => `r${i}`).join(","))).toBe(false);
    // 20 ids of 200 characters that all need percent-encoding: what the schema allows at its longest.
    const longest = Array.from({ length: 20 }, (_, i) => `${":".repeat(199)}${i % 10}`).join(",");
    expect(longest.length).toBeLessThanOrEqual(runs.maxLength!);
    const r = await get(`/api/v1/compare/?runs=${encodeURIComponent(longest)}`);
    expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
    // A free text of the old maxLength (4000 characters of é, 24 KB percent-encoded) is refused by the schema.
    const text = await get(`/api/v1/compare/?runs=${encodeURIComponent("é".repeat(4000))}`);
    expect(text.statusCode).toBe(400);
  });

  it("POST /reference/load with a JSON null body is refused: the body may be left out, not be null", async () => {
    const r = await app.inject({
      method: "POST",
      url: "/api/v1/reference/load",
      payload: "null",
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(r.statusCode, r.body).toBe(400);
    expect(await db.prisma.referenceTable.count()).toBe(0);
  });

  it("/reference/load takes POST only: another method is a 405 whose Allow names POST, not GET of /reference/{id}", async () => {
    expect(Object.keys(doc.paths["/api/v1/reference/load"]!)).toEqual(["post"]);
    for (const method of ["GET", "OPTIONS", "PUT"] as const) {
      const r = await app.inject({ method, url: "/api/v1/reference/load" });
      expect(r.statusCode, `${method} ${r.body}`).toBe(405);
      expect(r.headers.allow).toBe("POST");
    }
    // A reference table's own path still answers GET.
    expect((await get("/api/v1/reference/nope")).statusCode).toBe(404);
  });

  it("the dashboard's page is not an operation of the API's document", () => {
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith("/api/v1/"))).toEqual([]);
  });
});
