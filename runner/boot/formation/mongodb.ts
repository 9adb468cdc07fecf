import type { MongoClient } from "mongodb";
import { mongodbConnectionProperties } from "../../../engines/mongodb/binding.js";
import { allMongods, mongosHosts, replicaSetInitiations, shardsToAdd } from "../../../engines/mongodb/formation.js";
import { MONGODB_COLLECTION, MONGODB_DATABASE, mongoShardingCommands } from "../../../engines/mongodb/schema.js";
import { MONGOS_PORT } from "../../../engines/mongodb/topology.js";
import type { Formation } from "./types.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A driver connection to one server (a mongod by itself, or a mongos); the driver is loaded only where MongoDB runs. */
async function connect(hostPort: string, direct: boolean): Promise<MongoClient> {
  const { MongoClient } = await import("mongodb");
  const client = new MongoClient(`mongodb://${hostPort}/`, {
    directConnection: direct,
    serverSelectionTimeoutMS: 5000,
    connectTimeoutMS: 5000,
  });
  await client.connect();
  return client;
}

/** Retries `attempt` until it returns a value (not undefined) or the deadline passes; the last reason names the wait. */
async function until<T>(
  what: string,
  deadline: number,
  log: (l: string) => void,
  attempt: () => Promise<T | undefined>,
): Promise<T> {
  let reason = "not tried yet";
  let logged = "";
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
      reason = "not yet";
    } catch (err) {
      reason = (err as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: gave up: ${reason}`);
    if (reason !== logged) log(`waiting for ${what}: ${reason}`);
    logged = reason;
    await sleep(2000);
  }
}

async function withClient<T>(hostPort: string, direct: boolean, use: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = await connect(hostPort, direct);
  try {
    return await use(client);
  } finally {
    await client.close().catch(() => {});
  }
}

/** MongoDB's AlreadyInitialized (23): a restarted leader finds the replica set it initiated before. */
const ALREADY_INITIALIZED = 23;

/**
 * MongoDB (seeds 000/001/002): every mongod up; each replica set initiated (config server, shards); the routers up;
 * every shard added; usertable sharded on _id and pre-split with one chunk per shard (engines/mongodb/schema.ts), all
 * through the driver: no mongosh on the instance. On a stand-in (FerretDB) there are no replica sets or sharding to
 * form; the collection is created and the marker says what serves.
 */
export const formMongodb: Formation = async ({ ctx, log, timeoutMs, standIn }) => {
  const deadline = Date.now() + timeoutMs;
  const self = `${ctx.nodeIps[0]}:${MONGOS_PORT}`;
  if (standIn) {
    const created = await until(`${standIn} on ${self}`, deadline, log, () =>
      withClient(self, true, async (c) => {
        const db = c.db(MONGODB_DATABASE);
        const exists = (await db.listCollections({ name: MONGODB_COLLECTION }).toArray()).length > 0;
        if (!exists) await db.createCollection(MONGODB_COLLECTION);
        return exists ? "found" : "created";
      }),
    );
    return {
      engine: "mongodb",
      nodes: ctx.nodeIps.length,
      preset: ctx.preset,
      connection: mongodbConnectionProperties({ hosts: [self] }),
      standIn,
      steps: [
        `stand-in: ${standIn}: no replica sets, no config server, no sharding or pre-split to form; the preset's server side (mongod.conf) does not apply, its write concern does`,
        `${MONGODB_DATABASE}.${MONGODB_COLLECTION} ${created}`,
      ],
    };
  }

  const initiations = replicaSetInitiations(ctx);
  const steps: string[] = [];
  for (const host of allMongods(initiations)) {
    await until(`mongod ${host}`, deadline, log, () =>
      withClient(host, true, async (c) => ((await c.db("admin").command({ ping: 1 })).ok === 1 ? true : undefined)),
    );
  }
  steps.push(`${allMongods(initiations).length} mongod(s) answer`);
  for (const i of initiations) {
    await withClient(i.host, true, async (c) => {
      try {
        await c.db("admin").command({ replSetInitiate: i.config });
        steps.push(`replica set ${i.config._id} initiated (${i.config.members.map((m) => m.host).join(", ")})`);
      } catch (err) {
        if ((err as { code?: number }).code !== ALREADY_INITIALIZED)
          throw new Error(`replSetInitiate ${i.config._id} on ${i.host}: ${(err as Error).message}`);
        steps.push(`replica set ${i.config._id} was initiated before`);
      }
    });
    await until(`a primary of ${i.config._id} on ${i.host}`, deadline, log, () =>
      withClient(i.host, true, async (c) =>
        (await c.db("admin").command({ hello: 1 })).isWritablePrimary === true ? true : undefined,
      ),
    );
  }
  await until(`mongos ${self}`, deadline, log, () =>
    withClient(self, false, async (c) => ((await c.db("admin").command({ ping: 1 })).ok === 1 ? true : undefined)),
  );
  await withClient(self, false, async (c) => {
    const admin = c.db("admin");
    const listed = async () =>
      new Set(((await admin.command({ listShards: 1 })).shards as Array<{ _id: string }>).map((s) => s._id));
    const present = await listed();
    for (const shard of shardsToAdd(initiations)) {
      if (present.has(shard.name)) continue;
      await admin.command({ addShard: shard.connection, name: shard.name });
      steps.push(`shard ${shard.connection} added`);
    }
    const want = shardsToAdd(initiations).map((s) => s.name);
    await until(`all ${want.length} shards listed`, deadline, log, async () => {
      const now = await listed();
      return want.every((s) => now.has(s)) ? true : undefined;
    });
    // A restarted leader finds usertable sharded already: its chunks were split and moved by the first attempt.
    const sharded = await c
      .db("config")
      .collection("collections")
      .findOne({ _id: `${MONGODB_DATABASE}.${MONGODB_COLLECTION}` as never });
    if (sharded) {
      steps.push(`${MONGODB_DATABASE}.${MONGODB_COLLECTION} was sharded before`);
      return;
    }
    for (const command of mongoShardingCommands(want)) {
      await admin.command(command);
      steps.push(`adminCommand ${JSON.stringify(command)}`);
    }
  });
  const hosts = mongosHosts(ctx);
  return {
    engine: "mongodb",
    nodes: ctx.nodeIps.length,
    preset: ctx.preset,
    connection: mongodbConnectionProperties({ hosts }),
    steps: [`topology ${ctx.mongoTopology}`, ...steps, `clients use the routers ${hosts.join(", ")}`],
  };
};
