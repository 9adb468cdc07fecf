import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { mongodbConnectionProperties } from "../../../engines/mongodb/binding.js";
import { renderMongodConfig } from "../../../engines/mongodb/config.js";
import { mongoShardingCommands } from "../../../engines/mongodb/schema.js";
import { hashedKeySplitPoints } from "../../../engines/ycsb-keys.js";

describe("mongodb sharding (engines/mongodb/schema.ts, seed 000)", () => {
  it("enables sharding, shards on _id and pre-splits one chunk per shard, moved to that shard", () => {
    const shards = ["shard0", "shard1", "shard2"];
    const commands = mongoShardingCommands(shards);
    const splits = hashedKeySplitPoints(3);
    expect(commands).toEqual([
      { enableSharding: "ycsb", primaryShard: "shard0" },
      { shardCollection: "ycsb.usertable", key: { _id: 1 } },
      { split: "ycsb.usertable", middle: { _id: splits[0] } },
      { moveChunk: "ycsb.usertable", find: { _id: splits[0] }, to: "shard1" },
      { split: "ycsb.usertable", middle: { _id: splits[1] } },
      { moveChunk: "ycsb.usertable", find: { _id: splits[1] }, to: "shard2" },
    ]);
  });

  it("needs no split for one shard and rejects bad shard lists", () => {
    expect(mongoShardingCommands(["rs0"])).toHaveLength(2);
    expect(() => mongoShardingCommands([])).toThrow(/shards/);
    expect(() => mongoShardingCommands(["a", "a"])).toThrow(/unique/);
  });
});

describe("mongod.conf (engines/mongodb/config.ts)", () => {
  it("parses as YAML with the preset's journal interval, and mounts the journal apart where the preset says", () => {
    const durable = renderMongodConfig("durable", { dbPath: "/data/db", clusterRole: "shardsvr", replicaSet: "rs1" });
    expect(parse(durable.yaml)).toMatchObject({
      storage: { dbPath: "/data/db", journal: { commitIntervalMs: 100 } },
      net: { port: 27017, bindIp: "0.0.0.0" },
      sharding: { clusterRole: "shardsvr" },
      replication: { replSetName: "rs1" },
    });
    expect(durable.journalMountPath).toBe("/data/db/journal");
    expect(renderMongodConfig("throughput").journalMountPath).toBeUndefined();
    expect(() => renderMongodConfig("durable", { clusterRole: "shardsvr" })).toThrow(/replicaSet/);
  });

  it("points the binding at the ycsb database", () => {
    expect(mongodbConnectionProperties({ hosts: ["10.0.1.5:27017", "10.0.1.6:27017"] })).toEqual({
      "mongodb.url": "mongodb://10.0.1.5:27017,10.0.1.6:27017/ycsb",
    });
    expect(() => mongodbConnectionProperties({ hosts: [] })).toThrow(/hosts/);
  });
});
