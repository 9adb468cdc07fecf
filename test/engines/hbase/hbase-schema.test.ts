import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { hbaseConnectionProperties } from "../../../engines/hbase/binding.js";
import { hbaseSiteProperties, renderHBaseSiteXml } from "../../../engines/hbase/config.js";
import { HBASE_COLUMN_FAMILY, hbaseTableSpec } from "../../../engines/hbase/schema.js";
import { hashedKeySplitPoints, ycsbKey, ycsbKeyHash } from "../../../engines/ycsb-keys.js";
import { clientProperties, PRESETS } from "../../../model/presets.js";

/** Records per range when YCSB's first `records` hashed keys are cut at `splits`. */
function rangeCounts(splits: string[], records: number): number[] {
  const counts = new Array<number>(splits.length + 1).fill(0);
  for (let i = 0; i < records; i++) {
    const key = ycsbKey(i);
    let range = 0;
    while (range < splits.length && key >= splits[range]!) range++;
    counts[range]!++;
  }
  return counts;
}

describe("YCSB key space (engines/ycsb-keys.ts)", () => {
  it("hashes record numbers as YCSB 0.17.0 does (record 0 is the well-known user6284781860667377211)", () => {
    expect(ycsbKey(0)).toBe("user6284781860667377211");
    expect(ycsbKeyHash(1n)).toBe(8517097267634966620n);
    for (let i = 0; i < 1000; i++) expect(ycsbKeyHash(BigInt(i)) >= 0n).toBe(true);
  });

  it.each([2, 3, 4, 8, 16, 32])("cuts the hashed keys into %i equal ranges", (parts) => {
    const splits = hashedKeySplitPoints(parts);
    expect(splits).toHaveLength(parts - 1);
    expect([...splits].sort()).toEqual(splits);
    const records = 64_000;
    for (const count of rangeCounts(splits, records)) {
      expect(Math.abs(count - records / parts)).toBeLessThan((records / parts) * 0.1);
    }
  });

  it("rejects a meaningless part count", () => {
    expect(hashedKeySplitPoints(1)).toEqual([]);
    expect(() => hashedKeySplitPoints(0)).toThrow(/parts/);
    expect(() => hashedKeySplitPoints(2.5)).toThrow(/parts/);
  });
});

describe("hbase schema and config (engines/hbase)", () => {
  it("specifies usertable/data with one region per node by default (seed 001: NUMREGIONS => node count)", () => {
    const spec = hbaseTableSpec({ preset: "balanced", nodes: 4 });
    expect(spec).toMatchObject({ table: "usertable", family: "data", durability: "SYNC_WAL", compression: "NONE" });
    expect(spec.splits).toEqual(hashedKeySplitPoints(4));
    expect(hbaseTableSpec({ preset: "durable", nodes: 1 }).splits).toEqual([]);
    expect(() => hbaseTableSpec({ preset: "durable", nodes: 0 })).toThrow(/nodes/);
  });

  it.each(PRESETS)("takes the table durability of preset %s from model/ and matches the client side", (preset) => {
    const spec = hbaseTableSpec({ preset, nodes: 2 });
    expect(clientProperties("hbase", preset)["hbase.durability"]).toBe(spec.durability);
  });

  it("renders hbase-site.xml that a real XML parser reads back, hsync only for the durable preset", () => {
    const parser = new XMLParser();
    const read = (xml: string) => {
      const doc = parser.parse(xml) as {
        configuration: {
          property: { name: string; value: string | boolean } | { name: string; value: string | boolean }[];
        };
      };
      const list = [doc.configuration.property].flat();
      return Object.fromEntries(list.map((p) => [p.name, String(p.value)]));
    };
    expect(read(renderHBaseSiteXml(hbaseSiteProperties("durable")))).toEqual({ "hbase.wal.hsync": "true" });
    expect(read(renderHBaseSiteXml(hbaseSiteProperties("throughput")))["hbase.wal.hsync"]).toBe("false");
    const cluster = read(renderHBaseSiteXml(hbaseSiteProperties("balanced", { masterHost: "10.0.1.10" })));
    expect(cluster).toMatchObject({
      "hbase.cluster.distributed": "true",
      "hbase.zookeeper.quorum": "10.0.1.10",
      "hbase.rootdir": "hdfs://10.0.1.10/hbase",
      "dfs.replication": "1",
    });
  });

  it("points the binding at ZooKeeper with the seeds' column family", () => {
    expect(hbaseConnectionProperties({ zookeeperQuorum: "10.0.1.10" })).toEqual({
      "hbase.zookeeper.quorum": "10.0.1.10",
      "hbase.zookeeper.property.clientPort": "2181",
      columnfamily: HBASE_COLUMN_FAMILY,
    });
  });
});
