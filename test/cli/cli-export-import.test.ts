import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { pinBaseline } from "../../api/store/histories.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { storeSpan } from "../../api/store/instance-spans.js";
import { loadReferenceData } from "../../api/store/reference-data.js";
import { quarantineRun } from "../../api/store/run-admin.js";
import { exportStore, TRANSFER_FORMAT, type TransferLine } from "../../api/store/transfer.js";
import type { InstanceStatus } from "../../model/instance-status.js";
import { fixtureDocument, freshPostgresDatabase, ROOT } from "../api/api-helpers.js";

const run = promisify(execFile);
const CLI = join(ROOT, "bin", "ycsb-lab.js");
const TABLES = [
  "sources",
  "reference_tables",
  "runs",
  "phases",
  "client_results",
  "operation_stats",
  "status_series",
  "validity_verdicts",
  "baselines",
  "instance_spans",
];
/** Status markers a real run's instances wrote (scripts/capture-status-fixtures.ts). */
const MARKERS = (
  JSON.parse(readFileSync(join(ROOT, "test/fixtures/instance-status/status-basicdb.json"), "utf8")) as {
    statuses: InstanceStatus[];
  }
).statuses;

async function lines(db: Database): Promise<TransferLine[]> {
  const out: TransferLine[] = [];
  for await (const l of exportStore(db.prisma)) if (l.kind !== "header") out.push(l);
  return out;
}

async function counts(db: Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES)
    out[t] = Number((await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM ${t}`))[0]!.n);
  return out;
}

const cli = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", YCSB_LAB_TOKEN: "", ...env },
    maxBuffer: 64 * 1024 * 1024,
  });

describe("ycsb-lab export / import: the embedded store to PostgreSQL, counts and values equal, idempotent", () => {
  const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-transfer-"));
  const pgliteDir = join(dir, "pglite");
  const file = join(dir, "export.jsonl");
  let databaseUrl: string;

  beforeAll(async () => {
    // The laptop's store: two measured runs from real YCSB output (one quarantined, one pinned as baseline) and the
    // seeds' published runs.
    const laptop = await openDatabase({ pgliteDir });
    const docs = [0, 1].flatMap((client) => [
      fixtureDocument({ runId: "laptop-a", client: client as 0 | 1 }),
      fixtureDocument({ runId: "laptop-b", client: client as 0 | 1, variant: "hdr-v1", nodes: 3 }),
    ]);
    const ingested = await ingestDocuments(laptop.prisma, docs);
    expect(ingested.every((o) => o.status === "created")).toBe(true);
    await loadReferenceData(laptop.prisma);
    await quarantineRun(laptop.prisma, "laptop-b", "client 1 saturated", "test");
    const machines = { dataInstanceType: "i4i.xlarge", clientInstanceType: "c7i.xlarge" };
    for (const m of MARKERS) expect(await storeSpan(laptop.prisma, "laptop-a", machines, m)).toBe(true);
    expect((await pinBaseline(laptop.prisma, "laptop-a", "before the upgrade")).status).toBe("done");
    await laptop.close();
    databaseUrl = await freshPostgresDatabase("transfer");
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("round-trips every run, measured and published: equal counts per table and equal rows, and a second import creates nothing", async () => {
    const exported = await cli(["export", "--out", file], { PGLITE_DIR: pgliteDir });
    expect(exported.stderr).toMatch(/ycsb-lab export: \d+ run\(s\)/);
    const first = JSON.parse((await cli(["import", file], { DATABASE_URL: databaseUrl })).stdout) as {
      runs: { created: number; present: number };
    };
    const second = JSON.parse((await cli(["import", file], { DATABASE_URL: databaseUrl })).stdout) as Record<
      string,
      { created: number; present: number }
    >;

    const laptop = await openDatabase({ pgliteDir });
    const team = await openDatabase({ databaseUrl });
    try {
      const [laptopCounts, teamCounts] = [await counts(laptop), await counts(team)];
      expect(laptopCounts.runs).toBeGreaterThan(2);
      expect(laptopCounts.operation_stats).toBeGreaterThan(0);
      expect(laptopCounts.instance_spans).toBe(MARKERS.length);
      expect(teamCounts).toEqual(laptopCounts);
      expect(first.runs).toEqual({ created: laptopCounts.runs, present: 0 });
      for (const kind of Object.values(second)) expect(kind.created).toBe(0);
      expect(second.runs!.present).toBe(laptopCounts.runs);
      // Values: every row the laptop's store holds, the team's store holds the same (an export of each is equal).
      expect(await lines(team)).toEqual(await lines(laptop));
      // The spans keep what their markers said each instance is billed for beside its hours (its realized cost).
      const spans = await team.prisma.instanceSpan.findMany({ orderBy: { instance: "asc" } });
      expect(spans.map((s) => [s.instance, s.volumes, s.publicIpv4])).toEqual(
        [...MARKERS]
          .sort((a, b) => a.instance.localeCompare(b.instance))
          .map((m) => [m.instance, m.billing!.volumes, m.billing!.publicIpv4]),
      );
      const published = await team.prisma.run.count({ where: { source: { kind: "published" } } });
      expect(published).toBeGreaterThan(0);
      expect((await team.prisma.run.findUnique({ where: { id: "laptop-b" } }))?.quarantineReason).toBe(
        "client 1 saturated",
      );
    } finally {
      await laptop.close();
      await team.close();
    }
  }, 240_000);

  /** The real export of the laptop's store with one more line at its end. */
  async function exportWith(
    name: string,
    extra: (runLine: { kind: "run"; run: Record<string, unknown> }) => unknown,
  ): Promise<{ path: string; line: number }> {
    if (!existsSync(file)) await cli(["export", "--out", file], { PGLITE_DIR: pgliteDir });
    const text = readFileSync(file, "utf8").trimEnd().split("\n");
    const realRun = JSON.parse(text.find((l) => l.startsWith('{"kind":"run"'))!) as {
      kind: "run";
      run: Record<string, unknown>;
    };
    const path = join(dir, name);
    writeFileSync(path, `${[...text, JSON.stringify(extra(realRun))].join("\n")}\n`);
    return { path, line: text.length + 1 };
  }

  async function importFails(path: string): Promise<{ stderr: string; counts: Record<string, number> }> {
    const url = await freshPostgresDatabase(`transfer_${Math.random().toString(36).slice(2, 8)}`);
    const failed = await cli(["import", path], { DATABASE_URL: url }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const out: Record<string, number> = {};
    try {
      if ((await client.query("SELECT to_regclass('runs') AS t")).rows[0].t !== null) {
        for (const t of TABLES) out[t] = Number((await client.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
      }
    } finally {
      await client.end();
    }
    return { stderr: failed!.stderr, counts: out };
  }

  it("a real export with one bad run appended: refused naming the line and the field, nothing written", async () => {
    const { path, line } = await exportWith("bad-field.jsonl", (r) => ({
      ...r,
      run: { ...r.run, id: "appended", nodes: "three" },
    }));
    const { stderr, counts } = await importFails(path);
    expect(stderr).toContain(`line ${line}: a run line: /run/nodes: Expected integer`);
    expect(counts).toEqual({});
  }, 300_000);

  it("a real export with one run the database refuses appended: the whole import rolls back", async () => {
    // Valid line by line, but the same phase twice in one run breaks the store's unique (run, phase name).
    const { path, line } = await exportWith("bad-store.jsonl", (r) => {
      const phases = r.run.phases as unknown[];
      return { ...r, run: { ...r.run, id: "appended", phases: [...phases, phases[0]] } };
    });
    const { stderr, counts } = await importFails(path);
    expect(stderr).toContain(`line ${line}: the run could not be stored, nothing was written`);
    expect(Object.keys(counts)).toEqual(TABLES);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  }, 300_000);

  it("a run naming a source neither the file nor the store holds is refused, naming it", async () => {
    const { path, line } = await exportWith("bad-source.jsonl", (r) => ({
      ...r,
      run: { ...r.run, id: "appended", sourceId: "nowhere" },
    }));
    const { stderr, counts } = await importFails(path);
    expect(stderr).toContain(`line ${line}: the run's source "nowhere" is neither in the file nor in this store`);
    expect(counts.runs).toBe(0);
  }, 300_000);

  it("refuses a file that is not an export, naming the line, and writes nothing", async () => {
    const bad = join(dir, "bad.jsonl");
    writeFileSync(
      bad,
      `${JSON.stringify({ kind: "header", format: TRANSFER_FORMAT, exportedAt: new Date().toISOString() })}\n{"kind":"run","run":{"phases":[]}}\n`,
    );
    const url = await freshPostgresDatabase("transfer_bad");
    const failed = await cli(["import", bad], { DATABASE_URL: url }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/line 2: a run line: \/run\/id: Expected required property/);
    // Checked before the store was opened: not even a table was created.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect((await client.query("SELECT to_regclass('runs') AS t")).rows[0].t).toBeNull();
    await client.end();
  }, 300_000);
});
