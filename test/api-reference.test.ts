import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api/build.js";
import { openDatabase, type Database } from "../api/db/open.js";
import { analyseScaling } from "../model/aggregate/scaling.js";
import { checkSeedFile, loadReferenceData, readSeedFile, SEEDS, type Cell, type SeedFile } from "../prisma/reference/load.js";
import { ROOT, testConfig } from "./api-helpers.js";

/** Tables per seed: every published table of the five seeds' texts. */
const TABLES: Record<string, number> = { "000": 11, "001": 12, "002": 5, "003": 9, "004": 6 };
const ROWS: Record<string, number> = { "000": 62, "001": 72, "002": 15, "003": 88, "004": 16 };

// The seed texts: `seeds/` in the repository (DESIGN.md) or YCSB_LAB_SEEDS_DIR.
const SEEDS_DIR = process.env.YCSB_LAB_SEEDS_DIR ?? `${ROOT}seeds`;

function seedText(seed: string): string {
  const file = readdirSync(SEEDS_DIR).find((f) => f.startsWith(`${seed}_`) || f.startsWith(`${seed}-`) || f === `${seed}.txt`);
  if (!file) throw new Error(`no text of seed ${seed} in ${SEEDS_DIR}`);
  return readFileSync(`${SEEDS_DIR}/${file}`, "utf8")
    .replaceAll("\u00a0", " ")
    .replace(/<\/?b>/g, "")
    .replace(/(\d),(?=\d)/g, "$1"); // thousands separators
}

/** The row's cells appear, in order, on one line of the seed text (numbers compared as numbers). */
function rowInText(lines: string[][], row: Cell[]): boolean {
  const wanted: (string | number)[] = row.flatMap((c): (string | number)[] => (c === null || c === "" ? [] : typeof c === "string" ? c.split(/\s+/) : [c]));
  return lines.some((tokens) => {
    let i = 0;
    for (const t of tokens) {
      const w = wanted[i];
      if (w === undefined) break;
      const hit = typeof w === "number" ? Number(t.replace(/%$/, "")) === w : t === w;
      if (hit) i++;
    }
    return i === wanted.length;
  });
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
      expect(f.tables.reduce((a, t) => a + t.rows.length, 0), f.seed).toBe(ROWS[f.seed]);
      expect(f.citation.title.length).toBeGreaterThan(10);
      expect(f.citation.year).toBeGreaterThan(2010);
    }
  });

  it("every transcribed row is in the seed text", () => {
    for (const f of files) {
      const lines = seedText(f.seed).split("\n").map((l) => l.trim().split(/\s+/));
      for (const t of f.tables) for (const row of t.rows) expect(rowInText(lines, row), `${t.id}: ${JSON.stringify(row)}`).toBe(true);
    }
  });

  it("a transcription error would be caught", () => {
    if (!existsSync(SEEDS_DIR)) return;
    const lines = seedText("000").split("\n").map((l) => l.trim().split(/\s+/));
    expect(rowInText(lines, [1, 18683.43, 13761.12, 15617.98, 8368.44])).toBe(true);
    expect(rowInText(lines, [1, 18683.43, 13761.12, 15617.89, 8368.44])).toBe(false);
  });

  it("seed 002's scalability score is the mean of the step gains over the linear gains (both its tables)", () => {
    const f = files.find((x) => x.seed === "002")!;
    for (const id of ["002-scalability-read-heavy", "002-scalability-balanced"]) {
      for (const [db, g6, g8, avg] of f.tables.find((t) => t.id === id)!.rows as [string, number, number, number][]) {
        const a = analyseScaling([{ nodes: 4, throughputOpsSec: 100 }, { nodes: 6, throughputOpsSec: 100 + g6 }, { nodes: 8, throughputOpsSec: 100 + g8 }]);
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
    app = await buildApp(testConfig(), { database: db, logLevel: "silent" });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it("/scaling reproduces seed 002's balanced-workload scores from its throughput table", async () => {
    const r = await app.inject({ url: "/api/v1/scaling?source=published&scenario=lineate-2014&workload=a" });
    expect(r.statusCode, r.body).toBe(200);
    const published = (await readSeedFile("002")).tables.find((t) => t.id === "002-scalability-balanced")!.rows as [string, number, number, number][];
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
    const series = r.json().series as { scenario: string; citation: string | null; sourceId: string; points: { nodes: number }[] }[];
    // Seeds 000 and 001 both published Cassandra read-mostly throughput at 1..32 nodes; seed 003 at one node.
    const scenarios = series.map((s) => s.scenario).sort();
    expect(scenarios).toEqual(expect.arrayContaining(["datastax-2013", "endpoint-2015"]));
    expect(new Set(series.map((s) => s.sourceId)).size).toBe(series.length);
    for (const s of series) expect(s.citation).toBeTruthy();
    const endpoint = series.find((s) => s.scenario === "endpoint-2015")!;
    expect(endpoint.points.map((p) => p.nodes)).toEqual([1, 2, 4, 8, 16, 32]);
    const d = await app.inject({ url: "/api/v1/durability?source=published&engine=cassandra" });
    expect(d.statusCode, d.body).toBe(200);
    const rows = d.json().rows as { scenario: string; preset: string; workload: string | null; sourceId: string }[];
    const keys = rows.map((x) => `${x.sourceId}|${x.preset}|${x.workload}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("serves seed tables verbatim and as CSV", async () => {
    const all = await app.inject({ url: "/api/v1/reference?seed=003" });
    expect(all.json().tables).toHaveLength(9);
    const csv = await app.inject({ url: "/api/v1/reference/003-runtime-t1?format=csv" });
    expect(csv.body.split("\r\n")[0]).toBe("NT,Cassandra,MongoDB");
    expect(csv.body.split("\r\n")).toHaveLength(12);
  });

  it("seed 003 runtimes appear as a thread sweep, throughput derived from operations / runtime", async () => {
    const r = await app.inject({ url: "/api/v1/sweeps?source=published&scenario=andor-parv-2019&engine=mongodb&workload=b" });
    const series = r.json().series as { runId: string; points: { threads: number; throughputOpsSec: number }[] }[];
    const s = series.find((x) => x.runId === "seed003-b-ops1000000-mongodb")!;
    expect(s.points.map((p) => p.threads)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
    const t8 = (await readSeedFile("003")).tables.find((t) => t.id === "003-runtime-t8")!;
    expect(s.points[0]!.throughputOpsSec).toBeCloseTo(1_000_000 / ((t8.rows[0]![2] as number) / 1000), 6);
  });
});
