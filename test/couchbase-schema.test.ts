import { describe, expect, it } from "vitest";
import { couchbaseConnectionProperties } from "../engines/couchbase/binding.js";
import { couchbaseBucketCreateArgs } from "../engines/couchbase/schema.js";
import { PRESETS, presetFor } from "../model/presets.js";

describe("couchbase bucket (engines/couchbase/schema.ts)", () => {
  it.each(PRESETS)("creates the ycsb bucket with the eviction policy of preset %s (seed 000: full eviction)", (preset) => {
    const args = couchbaseBucketCreateArgs({ preset, ramQuotaMb: 23_000, replicas: 1 });
    const option = (name: string) => args[args.indexOf(name) + 1];
    expect(args[0]).toBe("bucket-create");
    expect(option("--bucket")).toBe("ycsb");
    expect(option("--bucket-ramsize")).toBe("23000");
    expect(option("--bucket-replica")).toBe("1");
    expect(option("--bucket-eviction-policy")).toBe(presetFor("couchbase", preset).server.evictionPolicy);
    expect(option("--bucket-eviction-policy")).toBe("fullEviction");
  });

  it("rejects quotas and replica counts Couchbase would refuse", () => {
    expect(() => couchbaseBucketCreateArgs({ preset: "durable", ramQuotaMb: 99 })).toThrow(/ramQuotaMb/);
    expect(() => couchbaseBucketCreateArgs({ preset: "durable", ramQuotaMb: 100, replicas: 4 })).toThrow(/replicas/);
  });

  it("points the binding at the cluster, scans off unless asked", () => {
    expect(couchbaseConnectionProperties({ connectionString: "couchbase://10.0.1.7", username: "u", password: "p" })).toEqual({
      "couchbase.connectionString": "couchbase://10.0.1.7",
      "couchbase.username": "u",
      "couchbase.password": "p",
      "couchbase.bucket": "ycsb",
      "couchbase.scan": "none",
    });
  });
});
