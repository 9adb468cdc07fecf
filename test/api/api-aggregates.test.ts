import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../api/db/open.js";
import { rebuildAggregates } from "../../api/store/aggregates/rebuild.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { durability } from "../../api/store/queries/durability.js";
import type { RunFilters } from "../../api/store/queries/filters.js";
import { repeatability } from "../../api/store/queries/repeatability.js";
import { scaling } from "../../api/store/queries/scaling.js";
import { sweeps } from "../../api/store/queries/sweeps.js";
import { deleteRun, quarantineRun } from "../../api/store/run-admin.js";
import { clientHistograms } from "../../model/hdr/index.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument, fixtureHdr, freshPostgresDatabase } from "./api-helpers.js";

const histograms = (c: 0 | 1) =>
  clientHistograms(["READ", "UPDATE"].map((operation) => ({ operation, text: fixtureHdr("hdr-v2", c, operation) })));

/**
 * Runs of a thread sweep (4, 8, 16 threads x 2 clients) over engines, cluster sizes and repeats, with real YCSB output
 * and histograms; one repeat's phase judged invalid, one phase missing a client, one run with its own repeat index.
 */
function dataset(): ResultDocument[] {
  const docs: ResultDocument[] = [];
  for (const engine of ["cassandra", "hbase"] as const) {
    for (const nodes of [1, 3]) {
      for (const repeat of [0, 1, 2]) {
        const runId = `agg-${engine}-${nodes}-r${repeat}`;
        [4, 8, 16].forEach((threads, i) => {
          for (const client of [0, 1] as const) {
            if (engine === "hbase" && nodes === 3 && repeat === 2 && threads === 16 && client === 1) continue; // incomplete
            const d = fixtureDocument({
              runId,
              engine,
              nodes,
              repeat,
              client,
              threads,
              phaseName: `a-t${threads}`,
              phaseIndex: i,
              scenario: "aggregates",
            });
            // Real output at other load levels: the same operations in less time as threads and nodes grow.
            const f = (1 + i / 4) * nodes * (1 + repeat / 50);
            d.result.overall = {
              runtimeMs: d.result.overall.runtimeMs / f,
              throughputOpsSec: d.result.overall.throughputOpsSec * f,
            };
            if (engine === "cassandra") d.hdrHistograms = histograms(client);
            if (engine === "cassandra" && nodes === 3 && repeat === 1 && threads === 8)
              d.validity = {
                verdict: "invalid",
                reasons: [{ code: "failed-operations", message: "2% of operations failed" }],
              };
            docs.push(d);
          }
        });
      }
    }
  }
  return docs;
}

describe.each(["pglite", "postgres"] as const)("aggregates kept at ingest on %s", (kind) => {
  let db: Database;
  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_aggregates") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
    // In several batches, so groups are recomputed as their phases arrive.
    const docs = dataset();
    for (let i = 0; i < docs.length; i += 17) await ingestDocuments(db.prisma, docs.slice(i, i + 17));
  });
  afterAll(async () => {
    await db?.close();
  });

  // A date range cuts through the kept groups: the views then compute from the phases. From 1970 it leaves out nothing.
  const computed = (f: RunFilters): RunFilters => ({ ...f, from: "1970-01-01T00:00:00.000Z" });
  const filters: RunFilters[] = [
    {},
    { include: "all" },
    { engine: "cassandra" },
    { scenario: "aggregates", nodes: 3, include: "all" },
    { workload: "a", preset: "balanced" },
  ];

  async function expectKeptEqualsComputed() {
    for (const f of filters) {
      expect(await sweeps(db.prisma, f), JSON.stringify(f)).toEqual(await sweeps(db.prisma, computed(f)));
      expect(await durability(db.prisma, f), JSON.stringify(f)).toEqual(await durability(db.prisma, computed(f)));
      expect(await scaling(db.prisma, f), JSON.stringify(f)).toEqual(await scaling(db.prisma, computed(f)));
      expect(await repeatability(db.prisma, f), JSON.stringify(f)).toEqual(await repeatability(db.prisma, computed(f)));
    }
  }

  it("keeps one row per configuration and per peak group, and the views read them as computing from the phases would", async () => {
    // Ingest marked the groups dirty; the first view (or the background round) recomputes each once.
    // Marks are appended, one per write of a group: the groups marked are the distinct ids.
    const marked = async (runs: boolean) =>
      (
        await db.prisma.dirtyGroup.findMany({
          where: runs ? { id: { startsWith: "r:" } } : { NOT: { id: { startsWith: "r:" } } },
          distinct: ["id"],
          select: { id: true },
        })
      ).length;
    expect(await marked(false)).toBe(16);
    // And every run's headline (api/store/aggregates/run-headlines.ts).
    expect(await marked(true)).toBe(await db.prisma.run.count());
    await settleAggregates(db.prisma);
    expect(await db.prisma.dirtyGroup.count()).toBe(0);
    // 2 engines x 2 sizes x 3 thread counts; 2 x 2 peak groups.
    expect(await db.prisma.configurationAggregate.count()).toBe(12);
    expect(await db.prisma.peakAggregate.count()).toBe(4);
    await expectKeptEqualsComputed();
    const s = await sweeps(db.prisma, { engine: "cassandra", nodes: 3 });
    // Total threads: 16 per client x 2 clients.
    const point = s.series[0]!.points.find((p) => p.threads === 32)!;
    expect(point.throughput.n).toBe(3);
    expect(point.latency.READ!.p99Method).toBe("merged-hdr");
    // The invalid phase is left out by default and counted with include=all.
    expect(s.series[0]!.points.find((p) => p.threads === 16)!.throughput.n).toBe(2);
    expect(s.leftOut).toEqual({ invalid: 1, incomplete: 0 });
    const hbase = await scaling(db.prisma, { engine: "hbase" });
    expect(hbase.leftOut).toEqual({ invalid: 0, incomplete: 1 });
  });

  it("a retried batch (the same documents again, one of them changed) counts nothing twice", async () => {
    const kept = async () => ({
      configurations: await db.prisma.configurationAggregate.findMany({ orderBy: { id: "asc" } }),
      peaks: await db.prisma.peakAggregate.findMany({ orderBy: { id: "asc" } }),
    });
    const before = await kept();
    const batch = dataset().slice(17, 34);
    const changed = structuredClone(batch[0]!);
    changed.result.overall = {
      ...changed.result.overall,
      throughputOpsSec: changed.result.overall.throughputOpsSec * 2,
    };
    const outcomes = await ingestDocuments(db.prisma, [...batch, changed]);
    expect(outcomes.map((o) => o.status)).toEqual([...batch.map(() => "duplicate"), "conflict"]);
    await settleAggregates(db.prisma);
    expect(await kept()).toEqual(before);
    await expectKeptEqualsComputed();
  });

  it("a quarantined run leaves the kept rows, a released one rejoins them, a deleted one is gone from them", async () => {
    const before = await sweeps(db.prisma, { engine: "cassandra", nodes: 1 });
    expect((await quarantineRun(db.prisma, "agg-cassandra-1-r0", "disk full", "test")).status).toBe("done");
    const quarantined = await sweeps(db.prisma, { engine: "cassandra", nodes: 1 });
    expect(quarantined.series[0]!.points.map((p) => p.throughput.n)).toEqual([2, 2, 2]);
    await expectKeptEqualsComputed();
    expect((await quarantineRun(db.prisma, "agg-cassandra-1-r0", null, "test")).status).toBe("done");
    expect(await sweeps(db.prisma, { engine: "cassandra", nodes: 1 })).toEqual(before);
    expect((await deleteRun(db.prisma, "agg-hbase-3-r2", "test")).status).toBe("done");
    expect((await scaling(db.prisma, { engine: "hbase" })).leftOut).toEqual({ invalid: 0, incomplete: 0 });
    await expectKeptEqualsComputed();
  });

  it("rebuilds every kept row when a store written before them (or by older rules) is opened", async () => {
    const before = await Promise.all([
      sweeps(db.prisma, {}),
      durability(db.prisma, {}),
      scaling(db.prisma, {}),
      repeatability(db.prisma, { include: "all" }),
    ]);
    await db.prisma.$executeRawUnsafe("DELETE FROM phase_operations");
    await db.prisma.$executeRawUnsafe("DELETE FROM configuration_aggregates");
    await db.prisma.$executeRawUnsafe("DELETE FROM peak_aggregates");
    await db.prisma.$executeRawUnsafe("UPDATE phases SET configuration_id = NULL, peak_id = NULL");
    await db.prisma.$executeRawUnsafe("DELETE FROM aggregate_versions");
    expect(await rebuildAggregates(db.prisma)).toEqual(["phase-operations", "groups", "run-headlines"]);
    expect(await rebuildAggregates(db.prisma)).toEqual([]);
    expect(
      await Promise.all([
        sweeps(db.prisma, {}),
        durability(db.prisma, {}),
        scaling(db.prisma, {}),
        repeatability(db.prisma, { include: "all" }),
      ]),
    ).toEqual(before);
  });
});

/**
 * One engine, preset and size measured four ways (issue 23's deployment identity): on a stand-in, on a stand-in of
 * another engine version, on the engine itself, and on other machines. Repeat 0 peaks at 4 threads, repeats 1 and 2
 * at 8 (means 667 and 900 ops/s per level): the level of the highest mean is 8 threads, not each repeat's best.
 */
function deployments(): ResultDocument[] {
  const variants = [
    { id: "stand-in", version: "5.0.4", standIn: "site.ycsb.BasicDB", data: "i4i.xlarge" },
    { id: "stand-in-next", version: "5.0.5", standIn: "site.ycsb.BasicDB", data: "i4i.xlarge" },
    { id: "engine", version: "5.0.4", standIn: undefined, data: "i4i.xlarge" },
    { id: "other-machines", version: "5.0.4", standIn: "site.ycsb.BasicDB", data: "m6i.large" },
  ];
  const perLevel: Record<number, number[]> = { 4: [1000, 500, 500], 8: [900, 900, 900] };
  const docs: ResultDocument[] = [];
  for (const v of variants) {
    for (const repeat of [0, 1, 2]) {
      [4, 8].forEach((threads, i) => {
        for (const client of [0, 1] as const) {
          const d = fixtureDocument({
            runId: `dep-${v.id}-r${repeat}`,
            nodes: 1,
            repeat,
            client,
            threads,
            phaseName: `a-t${threads}`,
            phaseIndex: i,
            scenario: "deployments",
          });
          d.run.engineVersion = v.version;
          d.run.standIn = v.standIn;
          d.run.instanceTypes = { ...d.run.instanceTypes, data: v.data };
          // Each client half of the phase's throughput, its runtime scaled to match the same operations.
          const f = perLevel[threads]![repeat]! / 2 / d.result.overall.throughputOpsSec;
          d.result.overall = {
            runtimeMs: d.result.overall.runtimeMs / f,
            throughputOpsSec: d.result.overall.throughputOpsSec * f,
          };
          docs.push(d);
        }
      });
    }
  }
  return docs;
}

describe("kept groups are keyed by the deployment: stand-in and machines apart, engine versions spanned by peaks only", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({});
    const docs = deployments();
    for (let i = 0; i < docs.length; i += 20) await ingestDocuments(db.prisma, docs.slice(i, i + 20));
    await settleAggregates(db.prisma);
  });
  afterAll(async () => {
    await db?.close();
  });
  const computed = (f: RunFilters): RunFilters => ({ ...f, from: "1970-01-01T00:00:00.000Z" });

  it("one configuration per deployment and load level, one peak group per deployment but its version", async () => {
    // 4 deployments x 2 thread counts; the two versions of the stand-in share a peak group.
    expect(await db.prisma.configurationAggregate.count()).toBe(8);
    expect(await db.prisma.peakAggregate.count()).toBe(3);
    const peaks = await db.prisma.peakAggregate.findMany({
      orderBy: [{ standIn: "asc" }, { dataInstanceType: "asc" }],
    });
    expect(peaks.map((p) => [p.standIn, p.dataInstanceType, p.clientInstanceType])).toEqual([
      ["site.ycsb.BasicDB", "i4i.xlarge", "c7i.xlarge"],
      ["site.ycsb.BasicDB", "m6i.large", "c7i.xlarge"],
      [null, "i4i.xlarge", "c7i.xlarge"],
    ]);
  });

  it("the views read them as computing from the phases would, an instance type filter included", async () => {
    for (const f of [
      {},
      { include: "all" },
      { instanceType: "m6i.large" },
      { instanceType: "c7i.xlarge" },
      { version: "5.0.5" },
    ] as RunFilters[]) {
      expect(await sweeps(db.prisma, f), JSON.stringify(f)).toEqual(await sweeps(db.prisma, computed(f)));
      expect(await durability(db.prisma, f), JSON.stringify(f)).toEqual(await durability(db.prisma, computed(f)));
      expect(await scaling(db.prisma, f), JSON.stringify(f)).toEqual(await scaling(db.prisma, computed(f)));
      expect(await repeatability(db.prisma, f), JSON.stringify(f)).toEqual(await repeatability(db.prisma, computed(f)));
    }
    expect((await sweeps(db.prisma, {})).series).toHaveLength(4);
    expect((await scaling(db.prisma, {})).series).toHaveLength(3);
    const other = await durability(db.prisma, { instanceType: "m6i.large" });
    expect(other.rows.map((r) => [r.standIn, r.instanceTypes])).toEqual([
      ["site.ycsb.BasicDB", { data: "m6i.large", client: "c7i.xlarge" }],
    ]);
  });

  it("a kept cell is the mean over repeats at the level of the highest mean, over the versions it spans", async () => {
    const { rows } = await durability(db.prisma, {});
    const engine = rows.find((r) => r.standIn === null)!;
    // Each repeat's best averaged would be (1000 + 900 + 900) / 3; the level of the highest mean is 8 threads.
    expect(engine.throughput.n).toBe(3);
    expect(engine.throughput.mean).toBeCloseTo(900, 6);
    expect(engine.peakThreads).toEqual([16]);
    const standIn = rows.find((r) => r.standIn !== null && r.instanceTypes.data === "i4i.xlarge")!;
    expect(standIn).toMatchObject({ runs: 6, throughput: { n: 6 } });
    expect(standIn.throughput.mean).toBeCloseTo(900, 6);
    const { groups } = await repeatability(db.prisma, { version: "5.0.5" });
    expect(groups.map((g) => [g.engineVersion, g.threadsPerClient, g.throughput.n])).toEqual([
      ["5.0.5", 4, 3],
      ["5.0.5", 8, 3],
    ]);
  });
});
