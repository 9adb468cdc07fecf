import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../api/db/client.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { rebuildAggregates } from "../../api/store/aggregates/rebuild.js";
import { settleAggregates } from "../../api/store/aggregates/settle.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { deleteRun, quarantineRun } from "../../api/store/run-admin.js";
import { clientHistograms } from "../../model/hdr/index.js";
import type { ResultDocument } from "../../model/result-document.js";
import { fixtureDocument, fixtureHdr, freshPostgresDatabase } from "./api-helpers.js";

const histograms = (c: 0 | 1) =>
  clientHistograms(["READ", "UPDATE"].map((operation) => ({ operation, text: fixtureHdr("hdr-v2", c, operation) })));

/**
 * One run of a thread sweep (4, 8, 16 threads x 2 clients) with real YCSB output: Cassandra's with histograms,
 * HBase's without; one phase judged invalid, one missing a client (incomplete) where asked.
 */
function run(engine: "cassandra" | "hbase", nodes: number, repeat: number, id: string): ResultDocument[] {
  const docs: ResultDocument[] = [];
  [4, 8, 16].forEach((threads, i) => {
    for (const client of [0, 1] as const) {
      if (id.endsWith("-incomplete") && threads === 16 && client === 1) continue;
      const d = fixtureDocument({
        runId: id,
        engine,
        nodes,
        repeat,
        client,
        threads,
        phaseName: `a-t${threads}`,
        phaseIndex: i,
        scenario: "incremental",
      });
      const f = (1 + i / 4) * nodes * (1 + repeat / 50) * (1 + (id.length % 7) / 100);
      d.result.overall = {
        runtimeMs: d.result.overall.runtimeMs / f,
        throughputOpsSec: d.result.overall.throughputOpsSec * f,
      };
      if (engine === "cassandra") d.hdrHistograms = histograms(client);
      if (id.endsWith("-invalid") && threads === 8)
        d.validity = {
          verdict: "invalid",
          reasons: [{ code: "failed-operations", message: "2% of operations failed" }],
        };
      docs.push(d);
    }
  });
  return docs;
}

/**
 * Batches as a team stores them: runs whose ids sort before the ones already kept (the recount's order is the run
 * id's), a phase's two clients in two batches (incomplete, then complete), an invalid and an incomplete phase.
 */
function batches(): ResultDocument[][] {
  const at = (engine: "cassandra" | "hbase", nodes: number, ids: string[], from = 0) =>
    ids.flatMap((id, i) => run(engine, nodes, from + i, id));
  const split = at("cassandra", 3, ["inc-c-m"]);
  return [
    [...at("cassandra", 3, ["inc-c-k", "inc-c-t-invalid"]), ...at("hbase", 1, ["inc-h-k"])],
    // The first client of every phase of one run, then (next batch) the second: complete only then.
    [...at("cassandra", 3, ["inc-c-b"], 2), ...split.filter((d) => d.client.index === 0)],
    [...split.filter((d) => d.client.index === 1), ...at("hbase", 1, ["inc-h-a-incomplete", "inc-h-z"], 1)],
    // "inc-c-B": before "inc-c-a" as C orders text, between "inc-c-a" and "inc-c-b" in an en_US collation.
    [...at("cassandra", 3, ["inc-c-a", "inc-c-zz", "inc-c-B"], 4), ...at("hbase", 1, ["inc-h-c-invalid"], 3)],
  ];
}

type KeptRow = Record<string, unknown>;
async function kept(db: Db): Promise<{ configurations: KeptRow[]; peaks: KeptRow[] }> {
  return {
    configurations: await db.$queryRaw<KeptRow[]>`SELECT * FROM configuration_aggregates ORDER BY id`,
    peaks: await db.$queryRaw<KeptRow[]>`SELECT * FROM peak_aggregates ORDER BY id`,
  };
}

/** Every kept row as a from-scratch rebuild (rebuild.ts, groups only) computes it, the rows kept before restored. */
async function rebuilt(db: Db): Promise<{ configurations: KeptRow[]; peaks: KeptRow[] }> {
  await db.$executeRaw`DELETE FROM aggregate_versions WHERE name = 'groups'`;
  expect(await rebuildAggregates(db)).toEqual(["groups"]);
  return kept(db);
}

/**
 * The client with every phase id a query answered with recorded: the phases' rows, their operation groups and
 * histograms are read under the name phaseId (phaseSummaries, phaseOperationParts and the kept groups' reads).
 */
function recording(db: Db, read: Set<number>): Db {
  const record = (t: Db) => ({
    get(target: Db, key: string | symbol) {
      if (key === "$queryRaw")
        return async (...args: unknown[]) => {
          const rows = (await (target.$queryRaw as (...a: unknown[]) => Promise<unknown>)(...args)) as unknown[];
          for (const r of rows) if (r && typeof r === "object" && "phaseId" in r) read.add(Number(r.phaseId));
          return rows;
        };
      if (key === "$transaction")
        return (fn: (tx: Db) => Promise<unknown>, opts: unknown) =>
          (target.$transaction as (f: unknown, o: unknown) => Promise<unknown>)(
            (tx: Db) => fn(new Proxy(tx, record(tx))),
            opts,
          );
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(t) : v;
    },
  });
  return new Proxy(db, record(db));
}

describe.each(["pglite", "postgres"] as const)("kept groups recounted from the phases a write stored on %s", (kind) => {
  let db: Database;
  beforeAll(async () => {
    const url = kind === "postgres" ? await freshPostgresDatabase("api_incremental") : undefined;
    db = await openDatabase(url ? { databaseUrl: url } : {});
  });
  afterAll(async () => {
    await db?.close();
  });

  it("stored in batches, every kept row equals a from-scratch rebuild field by field", async () => {
    for (const batch of batches()) {
      expect((await ingestDocuments(db.prisma, batch)).every((o) => o.status === "created")).toBe(true);
      await settleAggregates(db.prisma);
    }
    const incremental = await kept(db.prisma);
    // 2 deployments x 3 thread counts; 2 peak groups.
    expect(incremental.configurations).toHaveLength(6);
    expect(incremental.peaks).toHaveLength(2);
    // The merged histograms are the kept state's: a Cassandra point's p99 is merged-hdr.
    const cassandra = incremental.configurations.find((r) => r.engine === "cassandra" && r.threads_per_client === 16)!;
    expect((cassandra.summary_all as { latency: { READ: { p99Method: string } } }).latency.READ.p99Method).toBe(
      "merged-hdr",
    );
    expect(await rebuilt(db.prisma)).toEqual(incremental);
  });

  it("keeps every phase's operation groups as a recount from its stored clients makes them", async () => {
    // Ingest merges the clients it stored with the phase's others without reading them back (phase-operations.ts
    // ClientsInHand): the batches above split phases between writes, and their Cassandra clients carry histograms.
    const phaseOperations = () =>
      db.prisma.$queryRaw<KeptRow[]>`SELECT * FROM phase_operations ORDER BY phase_id, operation`;
    const incremental = await phaseOperations();
    expect(incremental.length).toBeGreaterThan(20);
    expect(incremental.some((r) => r.percentile_method === "merged-hdr" && Number(r.clients) === 2)).toBe(true);
    await db.prisma.$executeRaw`DELETE FROM aggregate_versions WHERE name = 'phase-operations'`;
    expect(await rebuildAggregates(db.prisma)).toEqual(["phase-operations"]);
    expect(await phaseOperations()).toEqual(incremental);
  });

  it("a new run's recount reads only the phases it wrote, not the groups' others", async () => {
    await settleAggregates(db.prisma);
    const docs = [...run("cassandra", 3, 7, "inc-c-aa"), ...run("hbase", 1, 7, "inc-h-aa")];
    expect((await ingestDocuments(db.prisma, docs)).every((o) => o.status === "created")).toBe(true);
    const written = await db.prisma.phase.findMany({
      where: { runId: { in: ["inc-c-aa", "inc-h-aa"] } },
      select: { id: true },
    });
    const stored = await db.prisma.phase.count();
    const read = new Set<number>();
    await settleAggregates(recording(db.prisma, read));
    expect(await db.prisma.dirtyGroup.count()).toBe(0);
    // The groups hold the 33 phases of the 11 runs stored before; their recount read the 6 the write added.
    expect(stored - written.length).toBe(33);
    expect([...read].sort((a, b) => a - b)).toEqual(written.map((p) => p.id).sort((a, b) => a - b));
    const incremental = await kept(db.prisma);
    expect(await rebuilt(db.prisma)).toEqual(incremental);
  });

  it("after a quarantine, a release and a delete (each recounted whole) and writes after them, still a rebuild's", async () => {
    const steps: [string, () => Promise<unknown>][] = [
      ["quarantine", () => quarantineRun(db.prisma, "inc-c-k", "disk full", "test")],
      ["write", () => ingestDocuments(db.prisma, run("cassandra", 3, 8, "inc-c-0"))],
      ["release", () => quarantineRun(db.prisma, "inc-c-k", null, "test")],
      ["delete", () => deleteRun(db.prisma, "inc-h-c-invalid", "test")],
      ["write", () => ingestDocuments(db.prisma, run("hbase", 1, 8, "inc-h-0"))],
    ];
    for (const [step, change] of steps) {
      const before = await kept(db.prisma);
      await change();
      await settleAggregates(db.prisma);
      const incremental = await kept(db.prisma);
      expect(incremental, step).not.toEqual(before);
      expect(await rebuilt(db.prisma), step).toEqual(incremental);
    }
  });
});
