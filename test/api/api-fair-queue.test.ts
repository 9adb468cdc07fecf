import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FairQueue, laneOf } from "../../api/db/fair-queue.js";
import { type Database, openDatabase } from "../../api/db/open.js";
import { ingestDocuments } from "../../api/store/ingest.js";
import { fixtureDocument } from "./api-helpers.js";

// A POST waited 34.5 s behind 16 viewers' reads on PGlite (one connection, first come first served): readers and
// writers take turns instead (api/db/fair-queue.ts).
describe("readers and writers take turns on PGlite's one connection", () => {
  it("a write queued behind reads runs after the read running and before the reads waiting; reads are not starved", async () => {
    const queue = new FairQueue();
    const order: string[] = [];
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    const task = (name: string, wait?: Promise<void>) => async () => {
      await wait;
      order.push(name);
    };
    const done = [
      queue.run("read", task("r0", blocked)),
      ...[1, 2, 3, 4, 5].map((i) => queue.run("read", task(`r${i}`))),
      queue.run("write", task("w1")),
      queue.run("write", task("w2")),
    ];
    expect(queue.pending).toEqual({ read: 5, write: 2 });
    release();
    await Promise.all(done);
    expect(order).toEqual(["r0", "w1", "r1", "w2", "r2", "r3", "r4", "r5"]);
  });

  it("a failing task passes its error on and the queue moves on", async () => {
    const queue = new FairQueue();
    const failed = queue.run("write", async () => {
      throw new Error("boom");
    });
    const after = queue.run("read", async () => "ok");
    await expect(failed).rejects.toThrow("boom");
    await expect(after).resolves.toBe("ok");
  });

  it("statements that only read are reads; everything else is a write", () => {
    expect(laneOf('SELECT "id" FROM "runs"')).toBe("read");
    expect(laneOf("  with x as (select 1) select * from x")).toBe("write");
    expect(laneOf("UPDATE data_version SET version = version + 1")).toBe("write");
    expect(laneOf("ANALYZE")).toBe("write");
  });

  describe("on a PGlite store", () => {
    let db: Database;
    beforeAll(async () => {
      db = await openDatabase({});
      // The ingest's one-time probe (lz4 support) out of the way: the batch is then one transaction.
      await ingestDocuments(db.prisma, [fixtureDocument({ runId: "warm", client: 0 })]);
    });
    afterAll(async () => {
      await db?.close();
    });

    it("an ingest issued after ten slow reads is stored before eight of them have answered", async () => {
      const finished: string[] = [];
      const reads = Array.from({ length: 10 }, (_, i) =>
        db.prisma
          .$queryRawUnsafe("SELECT count(*)::int AS n FROM generate_series(1, 1000000)")
          .then(() => void finished.push(`read ${i}`)),
      );
      const write = ingestDocuments(
        db.prisma,
        [0, 1].map((c) => fixtureDocument({ runId: "behind-readers", client: c as 0 | 1 })),
      ).then((r) => {
        finished.push("write");
        return r;
      });
      const [outcomes] = await Promise.all([write, ...reads]);
      expect(outcomes.map((o) => o.status)).toEqual(["created", "created"]);
      expect(finished.length).toBe(11);
      expect(finished.length - 1 - finished.indexOf("write"), finished.join(", ")).toBeGreaterThanOrEqual(8);
    });
  });
});
