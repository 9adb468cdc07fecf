import { readdirSync, readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api/build.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import {
  type Cell,
  checkSeedFile,
  loadReferenceData,
  publishedDocuments,
  readSeedFile,
  SEEDS,
  type SeedFile,
} from "../../api/store/reference-data.js";
import { analyseScaling } from "../../model/aggregate/scaling.js";
import { type Engine, scenario } from "../../model/index.js";
import { fixtureDocument, ROOT, testConfig } from "./api-helpers.js";

/** Tables per seed: every published table of the five seeds' texts. */
const TABLES: Record<string, number> = { "000": 11, "001": 12, "002": 5, "003": 9, "004": 6 };
const ROWS: Record<string, number> = { "000": 62, "001": 72, "002": 15, "003": 88, "004": 16 };

// The seed texts: `seeds/` in the repository (DESIGN.md) or YCSB_LAB_SEEDS_DIR.
const SEEDS_DIR = process.env.YCSB_LAB_SEEDS_DIR ?? `${ROOT}seeds`;

function seedText(seed: string): string {
  const file = readdirSync(SEEDS_DIR).find(
    (f) => f.startsWith(`${seed}_`) || f.startsWith(`${seed}-`) || f === `${seed}.txt`,
  );
  if (!file) throw new Error(`no text of seed ${seed} in ${SEEDS_DIR}`);
  return readFileSync(`${SEEDS_DIR}/${file}`, "utf8")
    .replaceAll("\u00a0", " ")
    .replace(/<\/?b>/g, "")
    .replace(/(\d),(?=\d)/g, "$1"); // thousands separators
}

/** The row's cells appear, in order, on this line's tokens (numbers compared as numbers). */
function rowOnLine(tokens: string[], row: Cell[]): boolean {
  const wanted: (string | number)[] = row.flatMap((c): (string | number)[] =>
    c === null || c === "" ? [] : typeof c === "string" ? c.split(/\s+/) : [c],
  );
  let i = 0;
  for (const t of tokens) {
    const w = wanted[i];
    if (w === undefined) break;
    const hit = typeof w === "number" ? Number(t.replace(/%$/, "")) === w : t === w;
    if (hit) i++;
  }
  return i === wanted.length;
}

/** The row's cells appear, in order, on one line of the seed text. */
function rowInText(lines: string[][], row: Cell[]): boolean {
  return lines.some((tokens) => rowOnLine(tokens, row));
}

const isBlank = (tokens: string[]) => tokens.join("") === "";

/**
 * Where the table's rows stand in the text as one table: row after row on consecutive lines (blank lines between
 * allowed), the first row's line; -1 when they do not. Rows found one by one anywhere (rowInText) would accept a
 * table whose rows were copied from another table of the same text.
 */
function tableInText(lines: string[][], rows: Cell[][]): number {
  for (let start = 0; start < lines.length; start++) {
    if (!rowOnLine(lines[start]!, rows[0]!)) continue;
    let at = start;
    let all = true;
    for (const row of rows.slice(1)) {
      do at++;
      while (at < lines.length && isBlank(lines[at]!));
      if (at >= lines.length || !rowOnLine(lines[at]!, row)) {
        all = false;
        break;
      }
    }
    if (all) return start;
  }
  return -1;
}

/** Letters and digits only, lower case: headings extracted from PDFs differ in case, dashes and punctuation. */
const normalised = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The table's own heading (the last part of its tableRef, without a page range) on one of the `within` lines before `at`. */
function headingBefore(text: string[], at: number, tableRef: string, within = 16): boolean {
  const heading = normalised(
    tableRef
      .split(": ")
      .at(-1)!
      .replace(/\s*\(pp\.[^)]*\)$/, ""),
  );
  for (let k = at - 1; k >= Math.max(0, at - within); k--) if (normalised(text[k]!).includes(heading)) return true;
  return false;
}

describe("reference data of the seeds", () => {
  let files: SeedFile[];
  beforeAll(async () => {
    files = await Promise.all(SEEDS.map(readSeedFile));
  });

  it("has every table with its row count and citation", () => {
    for (const f of files) {
      expect(checkSeedFile(f), f.seed).toEqual([]);
      expect(f.tables.length, f.seed).toBe(TABLES[f.seed]);
      expect(
        f.tables.reduce((a, t) => a + t.rows.length, 0),
        f.seed,
      ).toBe(ROWS[f.seed]);
      expect(f.citation.title.length).toBeGreaterThan(10);
      expect(f.citation.year).toBeGreaterThan(2010);
    }
  });

  it("every transcribed row is in the seed text", () => {
    for (const f of files) {
      const lines = seedText(f.seed)
        .split("\n")
        .map((l) => l.trim().split(/\s+/));
      for (const t of f.tables)
        for (const row of t.rows) expect(rowInText(lines, row), `${t.id}: ${JSON.stringify(row)}`).toBe(true);
    }
  });

  it("every table stands in the seed text as one table, under its own heading, and no two tables are the same", () => {
    for (const f of files) {
      const text = seedText(f.seed).split("\n");
      const lines = text.map((l) => l.trim().split(/\s+/));
      const seen = new Map<string, string>();
      for (const t of f.tables) {
        const rows = JSON.stringify(t.rows);
        expect(seen.get(rows), `${t.id} has the rows of ${seen.get(rows)}`).toBeUndefined();
        seen.set(rows, t.id);
        const at = tableInText(lines, t.rows);
        expect(at, `${t.id}: its rows are not one table of seed ${f.seed}'s text`).toBeGreaterThanOrEqual(0);
        expect(headingBefore(text, at, t.tableRef), `${t.id}: "${t.tableRef}" is not the heading of its rows`).toBe(
          true,
        );
      }
    }
  });

  it("a transcription error would be caught", () => {
    const lines = seedText("000")
      .split("\n")
      .map((l) => l.trim().split(/\s+/));
    expect(rowInText(lines, [1, 18683.43, 13761.12, 15617.98, 8368.44])).toBe(true);
    expect(rowInText(lines, [1, 18683.43, 13761.12, 15617.89, 8368.44])).toBe(false);
    // Seed 001's deployment table (nodes, clients, records, threads) is in the text, but it is not a throughput table.
    const text001 = seedText("001").split("\n");
    const lines001 = text001.map((l) => l.trim().split(/\s+/));
    const deployment: Cell[][] = [
      [1, 1, "15M", "15M", 128, 128],
      [2, 1, "30M", "30M", 256, 256],
    ];
    expect(deployment.every((r) => rowInText(lines001, r))).toBe(true);
    const at = tableInText(lines001, deployment);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(headingBefore(text001, at, "Throughput Results: Load process")).toBe(false);
    expect(
      tableInText(lines001, [
        [1, 6955.33, 3126.29, 4101.73, "122.48%", "69.57%"],
        [4, 19965.86, 6528.82, 4630.18, "205.81%", "331.21%"],
      ]),
    ).toBe(-1);
  });

  it("seed 001's percentage columns agree with its figures (one misprint of the paper, noted, excepted)", () => {
    // Throughput: how much faster Cassandra is (C / X - 1); latency: how much lower ((C - X) / C). Both as printed.
    const f = files.find((x) => x.seed === "001")!;
    const misprints: string[] = [];
    let checked = 0;
    for (const t of f.tables) {
      const throughput = t.id.startsWith("001-throughput");
      for (const row of t.rows as [number, number, number, number, string, string][]) {
        const c = row[1];
        for (const [other, pct] of [
          [2, 4],
          [3, 5],
        ] as const) {
          const x = row[other];
          const printed = Number(row[pct].replace(/%$/, ""));
          const computed = (throughput ? c / x - 1 : (c - x) / c) * 100;
          checked++;
          if (Math.abs(computed - printed) > 0.01 + Math.abs(printed) * 1e-4)
            misprints.push(`${t.id} ${t.columns[pct]} at ${row[0]} shards`);
        }
      }
    }
    expect(checked).toBe(12 * 6 * 2);
    expect(misprints).toEqual(["001-latency-update %/MongoDB at 1 shards"]);
    expect(f.tables.find((t) => t.id === "001-latency-update")!.notes).toContain("-43131.41%");
  });

  it("seed 002's scalability score is the mean of the step gains over the linear gains (both its tables)", () => {
    const f = files.find((x) => x.seed === "002")!;
    for (const id of ["002-scalability-read-heavy", "002-scalability-balanced"]) {
      for (const [db, g6, g8, avg] of f.tables.find((t) => t.id === id)!.rows as [string, number, number, number][]) {
        const a = analyseScaling([
          { nodes: 4, throughputOpsSec: 100 },
          { nodes: 6, throughputOpsSec: 100 + g6 },
          { nodes: 8, throughputOpsSec: 100 + g8 },
        ]);
        expect(a.score! * 100, `${id} ${db}`).toBeCloseTo(avg, 1);
      }
    }
  });
});

describe("published runs in the API", () => {
  let db: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await openDatabase({});
    const first = await loadReferenceData(db.prisma);
    expect(first.created).toBe(first.documents);
    const again = await loadReferenceData(db.prisma);
    expect(again.created).toBe(0);
    expect(again.replaced).toBe(0);
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("/scaling reproduces seed 002's balanced-workload scores from its throughput table", async () => {
    const r = await app.inject({ url: "/api/v1/scaling?source=published&scenario=lineate-2014&workload=a" });
    expect(r.statusCode, r.body).toBe(200);
    const published = (await readSeedFile("002")).tables.find((t) => t.id === "002-scalability-balanced")!.rows as [
      string,
      number,
      number,
      number,
    ][];
    const series = r.json().series as { engine: string; analysis: { score: number; steps: { gain: number }[] } }[];
    expect(series).toHaveLength(3);
    for (const [name, g6, g8, avg] of published) {
      const s = series.find((x) => name.toLowerCase().startsWith(x.engine))!;
      expect(s.analysis.steps[0]!.gain * 100).toBeCloseTo(g6, 1);
      expect(s.analysis.steps[1]!.gain * 100).toBeCloseTo(g8, 1);
      expect(s.analysis.score * 100).toBeCloseTo(avg, 1);
    }
  });

  it("/scaling and /durability keep each study's figures apart: one series per citation, never a mix", async () => {
    const r = await app.inject({ url: "/api/v1/scaling?source=published&engine=cassandra&workload=b" });
    expect(r.statusCode, r.body).toBe(200);
    const series = r.json().series as {
      scenario: string;
      citation: string | null;
      sourceId: string;
      operationCount: number | null;
      points: { nodes: number; throughputOpsSec: number }[];
    }[];
    // Seeds 000 and 001 both published Cassandra read-mostly throughput at 1..32 nodes; seed 003 at one node, one
    // series per operation count.
    const scenarios = series.map((s) => s.scenario).sort();
    expect(scenarios).toEqual(expect.arrayContaining(["datastax-2013", "endpoint-2015"]));
    expect(new Set(series.map((s) => `${s.sourceId}|${s.operationCount}`)).size).toBe(series.length);
    for (const s of series) expect(s.citation).toBeTruthy();
    const endpoint = series.find((s) => s.scenario === "endpoint-2015")!;
    expect(endpoint.points.map((p) => p.nodes)).toEqual([1, 2, 4, 8, 16, 32]);
    // Each study's series carries that study's own table: seed 001's "Read-mostly Workload", Cassandra column.
    const datastax = series.find((s) => s.scenario === "datastax-2013")!;
    const table = (await readSeedFile("001")).tables.find((t) => t.id === "001-throughput-read-mostly")!;
    expect(datastax.points.map((p) => [p.nodes, p.throughputOpsSec])).toEqual(
      table.rows.map((row) => [row[0], row[1]]),
    );
    expect(datastax.points[0]!.throughputOpsSec).toBe(624.31);
    const d = await app.inject({ url: "/api/v1/durability?source=published&engine=cassandra" });
    expect(d.statusCode, d.body).toBe(200);
    const rows = d.json().rows as {
      scenario: string;
      preset: string;
      workload: string | null;
      sourceId: string;
      nodes: number;
      operationCount: number | null;
    }[];
    const keys = rows.map((x) => `${x.sourceId}|${x.preset}|${x.workload}|${x.nodes}|${x.operationCount}`);
    // Presets are compared per cluster size: seed 000's Cassandra figures at 1..32 nodes stay six cells, not one mean.
    expect(
      rows
        .filter((x) => x.scenario === "endpoint-2015" && x.workload === "b")
        .map((x) => x.nodes)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 4, 8, 16, 32]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("/repeatability finds no repeats among published figures: seed 003's operation counts are configurations", async () => {
    const r = await app.inject({ url: "/api/v1/repeatability?source=published" });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().groups).toEqual([]);
  });

  it("/repeatability groups a run's repeat phases (-r0, -r1) and each repeat keeps its own throughput", async () => {
    const docs = [0, 1].flatMap((repeat) =>
      ([0, 1] as const).map((client) =>
        fixtureDocument({
          runId: "repeats-in-run",
          client,
          phaseName: `a-t4-r${repeat}`,
          phaseIndex: 2 + repeat,
          variant: repeat ? "hdr-v2" : "hdr-v1",
        }),
      ),
    );
    await ingestDocuments(db.prisma, docs);
    const r = await app.inject({ url: "/api/v1/repeatability?source=measured" });
    expect(r.statusCode, r.body).toBe(200);
    const groups = r.json().groups as {
      phase: string;
      repeats: { phase: string; throughputOpsSec: number }[];
      throughput: { n: number; mean: number };
    }[];
    const g = groups.find((x) => x.phase === "a-t4")!;
    expect(g.repeats.map((x) => x.phase)).toEqual(["a-t4-r0", "a-t4-r1"]);
    const sums = [0, 1].map((repeat) =>
      docs.filter((d) => d.phase.name === `a-t4-r${repeat}`).reduce((a, d) => a + d.result.overall.throughputOpsSec, 0),
    );
    for (const [i, x] of g.repeats.entries()) expect(x.throughputOpsSec).toBeCloseTo(sums[i]!, 6);
    expect(g.throughput.n).toBe(2);
    expect(g.throughput.mean).toBeCloseTo((sums[0]! + sums[1]!) / 2, 6);
    // In /sweeps the two repeats are one point of the load level: throughput and runtime their means.
    const s = await app.inject({ url: "/api/v1/sweeps?source=measured" });
    const series = (
      s.json().series as {
        runId: string;
        points: { phase: string; phases: string[]; throughputOpsSec: number; runtimeMs: number }[];
      }[]
    ).find((x) => x.runId === "repeats-in-run")!;
    expect(series.points).toHaveLength(1);
    expect(series.points[0]).toMatchObject({ phase: "a-t4", phases: ["a-t4-r0", "a-t4-r1"] });
    expect(series.points[0]!.throughputOpsSec).toBeCloseTo((sums[0]! + sums[1]!) / 2, 6);
    const runtimes = [0, 1].map((repeat) =>
      Math.max(...docs.filter((d) => d.phase.name === `a-t4-r${repeat}`).map((d) => d.result.overall.runtimeMs)),
    );
    expect(series.points[0]!.runtimeMs).toBeCloseTo((runtimes[0]! + runtimes[1]!) / 2, 6);
  });

  it("seed 004's p99 tables say in `derive` which workload and preset they are, as their titles do", async () => {
    const r = await app.inject({ url: "/api/v1/reference?seed=004" });
    const tables = r.json().tables as {
      id: string;
      tableRef: string;
      derive: { metric: string; workload: string; preset: string; nodes: number };
    }[];
    expect(tables).toHaveLength(6);
    const words: Record<string, string> = {
      throughput: "Throughput Optimized",
      balanced: "Balanced",
      durable: "Durability Optimized",
    };
    for (const t of tables) {
      expect(t.derive.metric).toBe("p99");
      expect(t.tableRef).toContain(`Workload ${t.derive.workload.toUpperCase()}, ${words[t.derive.preset]}`);
      expect(t.derive.nodes).toBe(1);
    }
    const bad = structuredClone(await readSeedFile("004"));
    (bad.tables[0]!.derive as { operations: Record<string, string> }).operations = { "99th (Scan)": "SCAN" };
    bad.tables[1]!.rows[0]![0] = "Redis";
    expect(checkSeedFile(bad)).toEqual([
      "004-p99-a-throughput: operation column 99th (Scan) missing",
      "004-p99-b-throughput row 0: Redis is not a named engine",
    ]);
  });

  it("serves seed tables verbatim and as CSV", async () => {
    const all = await app.inject({ url: "/api/v1/reference?seed=003" });
    expect(all.json().tables).toHaveLength(9);
    const csv = await app.inject({ url: "/api/v1/reference/003-runtime-t1?format=csv" });
    expect(csv.body.split("\r\n")[0]).toBe("NT,Cassandra,MongoDB");
    expect(csv.body.split("\r\n")).toHaveLength(12);
  });

  it("seed 003's operation counts are separate series, never averaged as if repeats", async () => {
    const tables = (await readSeedFile("003")).tables.filter(
      (t) => t.derive?.metric === "runtime" && t.derive.workload === "a",
    );
    const s = await app.inject({
      url: "/api/v1/scaling?source=published&scenario=andor-parv-2019&engine=mongodb&workload=a",
    });
    expect(s.statusCode, s.body).toBe(200);
    const scalingSeries = s.json().series as {
      operationCount: number;
      points: { nodes: number; runs: number; throughputOpsSec: number; throughput: { n: number } }[];
    }[];
    expect(scalingSeries.map((x) => x.operationCount).sort((a, b) => a - b)).toEqual([
      1_000, 10_000, 100_000, 1_000_000,
    ]);
    for (const x of scalingSeries) {
      expect(x.points).toHaveLength(1);
      // Each figure is the mean of seed 003's three repeats (lines 305-308): n as printed, its spread not printed.
      expect(x.points[0]).toMatchObject({ nodes: 1, runs: 1, throughput: { n: 3, stdDev: null, ci95: null } });
      // The peak of the count's own table: operations / the shortest mean runtime of its ten thread counts.
      const t = tables.find((tt) => (tt.derive as { operations?: number }).operations === x.operationCount)!;
      const fastest = Math.min(...t.rows.map((r) => r[2] as number));
      expect(x.points[0]!.throughputOpsSec).toBeCloseTo((x.operationCount * 1000) / fastest, 6);
    }
    const w = await app.inject({
      url: "/api/v1/sweeps?source=published&scenario=andor-parv-2019&engine=mongodb&workload=a",
    });
    const sweepSeries = w.json().series as { operationCount: number; points: { threads: number }[] }[];
    expect(sweepSeries.map((x) => x.operationCount).sort((a, b) => a - b)).toEqual([1_000, 10_000, 100_000, 1_000_000]);
    for (const x of sweepSeries)
      expect(x.points.map((p) => p.threads)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
  });

  it("the load tables of seeds 000 and 001 are scaling series (workload=load), under seed 000's non-durable load preset", async () => {
    for (const [seed, scenario, engines, preset] of [
      ["000", "endpoint-2015", 4, "throughput"],
      ["001", "datastax-2013", 3, "balanced"],
    ] as const) {
      const r = await app.inject({ url: `/api/v1/scaling?source=published&scenario=${scenario}&workload=load` });
      expect(r.statusCode, r.body).toBe(200);
      const series = r.json().series as {
        engine: string;
        preset: string;
        workload: string;
        points: { nodes: number; throughputOpsSec: number }[];
      }[];
      expect(series).toHaveLength(engines);
      const table = (await readSeedFile(seed)).tables.find((t) => t.id === `${seed}-throughput-load`)!;
      for (const x of series) {
        expect(x).toMatchObject({ workload: "load", preset });
        const col = table.columns.findIndex((c) => c.toLowerCase() === x.engine);
        expect(x.points.map((p) => [p.nodes, p.throughputOpsSec])).toEqual(table.rows.map((row) => [row[0], row[col]]));
      }
    }
    // Seed 000's workloads run each engine as printed: Cassandra durable (lines 525-526), the others on their defaults
    // (lines 530-626); only its load ran non-durably (lines 216-217). Every point is the mean of 3 runs (lines 204-207).
    const b = await app.inject({ url: "/api/v1/scaling?source=published&scenario=endpoint-2015&workload=b" });
    const presets = Object.fromEntries(
      (b.json().series as { engine: string; preset: string }[]).map((x) => [x.engine, x.preset]),
    );
    expect(presets).toEqual({ cassandra: "durable", hbase: "balanced", mongodb: "balanced", couchbase: "throughput" });
    const spec = scenario("endpoint-2015");
    for (const [engine, preset] of Object.entries(presets))
      expect(spec.enginePresets?.[engine as Engine]?.presets[0]).toBe(preset);
    for (const x of b.json().series as { points: { throughput: { n: number } }[] }[])
      for (const p of x.points) expect(p.throughput.n).toBe(3);
  });

  it("the latency tables of seeds 000, 001 and 002 are reference series per engine, in microseconds", async () => {
    const r = await app.inject({ url: "/api/v1/reference" });
    const tables = r.json().tables as {
      id: string;
      series: {
        engine: string;
        workload: string | null;
        operation: string | null;
        points: { nodes: number; valueUs: number }[];
      }[];
    }[];
    const byId = (id: string) => tables.find((t) => t.id === id)!.series;
    const readMostly = byId("000-latency-read-mostly");
    expect(readMostly.map((x) => x.engine)).toEqual(["cassandra", "couchbase", "hbase", "mongodb"]);
    expect(readMostly[0]).toMatchObject({ workload: "b", operation: null });
    expect(readMostly[0]!.points[0]).toEqual({ nodes: 1, valueUs: 26312.23 });
    expect(readMostly[3]!.points.at(-1)).toEqual({ nodes: 32, valueUs: 1540875.22 });
    expect(byId("001-latency-scan")[2]).toMatchObject({
      engine: "mongodb",
      workload: null,
      operation: "SCAN",
      points: expect.arrayContaining([{ nodes: 1, valueUs: 157116882.28 }]),
    });
    // Seed 002 printed milliseconds: 2.173557066 ms is 2,173.557066 us.
    expect(byId("002-latency-read-heavy")[0]!.points[0]!.valueUs).toBeCloseTo(2173.557066, 6);
    expect(
      tables
        .filter((t) => t.series.length > 0)
        .map((t) => t.id)
        .sort(),
    ).toEqual(
      [
        ...["read-mostly", "balanced", "read-modify-write", "mixed-analytical", "insert-mostly"].map(
          (w) => `000-latency-${w}`,
        ),
        ...["read", "insert", "update", "scan"].map((o) => `001-latency-${o}`),
        "002-latency-balanced",
        "002-latency-read-heavy",
      ].sort(),
    );
  });

  it("published runs carry each study's versions, replication and per-engine presets, and seed 002's own title", async () => {
    const runs = async (q: string) =>
      (await app.inject({ url: `/api/v1/runs?source=published&limit=1000&${q}` })).json().runs as {
        id: string;
        engine: string;
        engineVersion: string;
        preset: string;
        replication: number;
        source: { citation: string };
      }[];
    const v = (rs: Awaited<ReturnType<typeof runs>>) => Object.fromEntries(rs.map((x) => [x.engine, x.engineVersion]));
    expect(v(await runs("scenario=datastax-2013"))).toEqual({ cassandra: "1.1.6", hbase: "0.94.3", mongodb: "2.2.2" });
    expect(v(await runs("scenario=andor-parv-2019"))).toEqual({ cassandra: "3.11.0", mongodb: "3.4.4" });
    const lineate = await runs("scenario=lineate-2014");
    expect(new Set(lineate.map((x) => x.replication))).toEqual(new Set([2]));
    expect(Object.fromEntries(lineate.map((x) => [x.engine, x.preset]))).toEqual({
      cassandra: "throughput",
      couchbase: "throughput",
      mongodb: "balanced",
    });
    expect(lineate[0]!.source.citation).toContain("NoSQL Performance when Scaling by RAM");
  });

  it("/anova recomputes Table 9 from the published Tables 1-8 and shows the printed row beside it", async () => {
    const r = await app.inject({ url: "/api/v1/anova?source=published&scenario=andor-parv-2019" });
    expect(r.statusCode, r.body).toBe(200);
    const analyses = r.json().analyses as {
      workload: string;
      operationCount: number;
      cells: { n: number }[];
      threadsNumeric: { rows: { df: number; F: number; significance: string }[]; withinKnown: boolean };
      threadsLevels: { note?: string };
      published: { table: string; F: number[]; significance: string[] };
    }[];
    expect(analyses).toHaveLength(8);
    for (const a of analyses) {
      expect(a.cells).toHaveLength(20);
      expect(a.cells.every((c) => c.n === 3)).toBe(true);
      expect(a.threadsNumeric.rows.map((x) => x.df)).toEqual([1, 1, 1, 56]);
      expect(a.threadsNumeric.withinKnown).toBe(false);
      expect(a.published.table).toBe("Table 9");
      a.threadsNumeric.rows.slice(0, 3).forEach((x, i) => {
        expect(x.significance, `${a.workload} ${a.operationCount}`).toBe(a.published.significance[i]);
        expect(x.F / a.published.F[i]! - 1).toBeLessThan(0.015);
      });
      expect(a.threadsLevels.note).toMatch(/no residual variance/);
    }
  });

  it("seed 003 runtimes appear as a thread sweep, throughput derived from operations / runtime", async () => {
    const r = await app.inject({
      url: "/api/v1/sweeps?source=published&scenario=andor-parv-2019&engine=mongodb&workload=b",
    });
    const series = r.json().series as { runId: string; points: { threads: number; throughputOpsSec: number }[] }[];
    const s = series.find((x) => x.runId === "seed003-b-ops1000000-mongodb")!;
    expect(s.points.map((p) => p.threads)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
    const t8 = (await readSeedFile("003")).tables.find((t) => t.id === "003-runtime-t8")!;
    expect(s.points[0]!.throughputOpsSec).toBeCloseTo(1_000_000 / ((t8.rows[0]![2] as number) / 1000), 6);
  });
});

describe("published runs stored from an older transcription", () => {
  it("are replaced by the current one; other seeds and measured runs are not touched", async () => {
    const db = await openDatabase({});
    try {
      // Stored as an earlier, wrong transcription of seed 001 had it (a deployment-table cell as throughput).
      const stale = structuredClone(await readSeedFile("001"));
      stale.tables.find((t) => t.id === "001-throughput-read-mostly")!.rows[0]![1] = 1;
      await ingestDocuments(db.prisma, publishedDocuments(stale), [], { allowPublished: true });
      await ingestDocuments(db.prisma, [fixtureDocument({ runId: "measured-kept" })]);
      const throughputOf = async (runId: string, phase: string) =>
        (await db.prisma.clientResult.findFirstOrThrow({ where: { runId, phase: { name: phase } } })).throughputOpsSec;
      expect(await throughputOf("seed001-cassandra-n1", "b")).toBe(1);
      const measured = await db.prisma.clientResult.findFirstOrThrow({ where: { runId: "measured-kept" } });

      const report = await loadReferenceData(db.prisma);
      const runs001 = new Set(publishedDocuments(await readSeedFile("001")).map((d) => d.run.id)).size;
      expect(report.replaced).toBe(runs001);
      expect(await throughputOf("seed001-cassandra-n1", "b")).toBe(624.31);
      expect(await db.prisma.clientResult.findFirstOrThrow({ where: { runId: "measured-kept" } })).toEqual(measured);
      expect((await loadReferenceData(db.prisma)).replaced).toBe(0);
    } finally {
      await db.close();
    }
  });
});
