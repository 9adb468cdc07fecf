import { describe, expect, test } from "vitest";
import {
  clientProperties,
  DURABILITY_PRESETS,
  ENGINES,
  operationMix,
  PRESETS,
  presetFor,
  WORKLOADS,
  type Workload,
  workload,
} from "../../model/index.js";

describe("workload catalogue", () => {
  test.each(Object.values(WORKLOADS) as Workload[])("$id: proportions sum to 1 and every entry has a source", (w) => {
    const total = Object.values(operationMix(w)).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(1, 10);
    expect(w.source.seed ?? w.source.doc).toBeTruthy();
    expect(w.properties.workload).toBe("site.ycsb.workloads.CoreWorkload");
  });

  test("seed 001's custom workloads are the exact mixes the paper lists", () => {
    expect(operationMix(workload("write-mostly"))).toMatchObject({ update: 0.99, read: 0.01 });
    expect(operationMix(workload("read-scan"))).toMatchObject({ read: 0.47, scan: 0.47, update: 0.06 });
    expect(operationMix(workload("write-scan"))).toMatchObject({ read: 0.25, scan: 0.25, update: 0.25, insert: 0.25 });
    expect(workload("read-latest").properties.requestdistribution).toBe("latest");
    expect(workload("read-scan").properties.maxscanlength).toBe("100");
  });

  test("seed 000's custom workloads: mixed 60/25/10/5 with scans of at most 100, insert-mostly 90/10", () => {
    expect(operationMix(workload("mixed-analytical"))).toMatchObject({
      read: 0.6,
      update: 0.25,
      insert: 0.1,
      scan: 0.05,
    });
    expect(workload("mixed-analytical").properties.maxscanlength).toBe("100");
    expect(operationMix(workload("insert-mostly"))).toMatchObject({ insert: 0.9, read: 0.1 });
  });

  test("an unknown workload is an error naming the known ones", () => {
    expect(() => workload("z")).toThrow(/unknown workload "z".*known: a, b/);
  });
});

describe("durability presets", () => {
  test("every engine has every preset, each with a reason and a source", () => {
    for (const engine of ENGINES) {
      for (const preset of PRESETS) {
        const p = presetFor(engine, preset);
        expect(p.engine).toBe(engine);
        expect(p.preset).toBe(preset);
        expect(p.reason.length).toBeGreaterThan(10);
        expect(p.sources.length).toBeGreaterThan(0);
      }
    }
  });

  test("the presets order durability the way DESIGN.md's table does", () => {
    expect(DURABILITY_PRESETS.cassandra.throughput.server.durableWrites).toBe(false);
    expect(DURABILITY_PRESETS.cassandra.balanced.server.commitlogSync).toBe("periodic");
    expect(DURABILITY_PRESETS.cassandra.durable.server.commitlogSync).toBe("batch");
    expect(clientProperties("mongodb", "durable")["mongodb.writeConcern.j"]).toBe("true");
    expect(clientProperties("mongodb", "throughput")["mongodb.writeConcern.j"]).toBe("false");
    expect(clientProperties("couchbase", "durable")["couchbase.durability"]).toBe("persistToMajority");
    expect(clientProperties("hbase", "throughput")["hbase.durability"]).toBe("ASYNC_WAL");
    expect(clientProperties("hbase", "durable")["hbase.durability"]).toBe("FSYNC_WAL");
  });

  test("a preset an engine lacks is an error naming the field", () => {
    expect(() => presetFor("cassandra", "paranoid" as never)).toThrow(/^preset: .*no preset "paranoid"/);
  });
});
