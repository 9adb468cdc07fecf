import { describe, expect, it } from "vitest";
import { couchbaseConnectionProperties } from "../../../engines/couchbase/binding.js";
import { couchbaseBucketParams } from "../../../engines/couchbase/schema.js";
import { PRESETS, presetFor } from "../../../model/presets.js";

describe("couchbase bucket (engines/couchbase/schema.ts)", () => {
  it.each(PRESETS)(
    "creates the ycsb bucket with the eviction policy of preset %s (seed 000: full eviction)",
    (preset) => {
      const params = couchbaseBucketParams({ preset, ramQuotaMb: 23_000, replicas: 1 });
      expect(params).toEqual({
        name: "ycsb",
        bucketType: "couchbase",
        ramQuota: "23000",
        replicaNumber: "1",
        evictionPolicy: "fullEviction",
        flushEnabled: "0",
      });
      expect(params.evictionPolicy).toBe(presetFor("couchbase", preset).server.evictionPolicy);
    },
  );

  it("rejects quotas and replica counts Couchbase would refuse", () => {
    expect(() => couchbaseBucketParams({ preset: "durable", ramQuotaMb: 99 })).toThrow(/ramQuotaMb/);
    expect(() => couchbaseBucketParams({ preset: "durable", ramQuotaMb: 100, replicas: 4 })).toThrow(/replicas/);
  });

  it("points the binding at the cluster, scans off unless asked, and leaves out a password a client reads from SSM", () => {
    expect(
      couchbaseConnectionProperties({ connectionString: "couchbase://10.0.1.7", username: "Administrator" }),
    ).not.toHaveProperty("couchbase.password");
    expect(
      couchbaseConnectionProperties({ connectionString: "couchbase://10.0.1.7", username: "u", password: "p" }),
    ).toEqual({
      "couchbase.connectionString": "couchbase://10.0.1.7",
      "couchbase.username": "u",
      "couchbase.password": "p",
      "couchbase.bucket": "ycsb",
      "couchbase.scan": "none",
    });
  });
});
