import { BALANCER_STATUS_COMMAND, balancerVerdict, isBalancerUnsupported } from "../engines/mongodb/balancer.js";
import { type Engine, rebalanceNote } from "../model/index.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One admin command against the cluster; injectable so the waiting rule is tested without a mongos. */
export type AdminCommand = (command: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** balancerCollectionStatus over the driver, through the routers of `mongodbUrl` (the binding's mongodb.url). */
export async function driverAdminCommand(
  mongodbUrl: string,
): Promise<{ command: AdminCommand; close: () => Promise<void> }> {
  const { MongoClient } = await import("mongodb");
  const client = new MongoClient(mongodbUrl, { serverSelectionTimeoutMS: 10_000, connectTimeoutMS: 10_000 });
  await client.connect();
  return { command: (c) => client.db("admin").command(c), close: () => client.close() };
}

/**
 * Seed 002's method step 2 ("wait for the database to finish rebalancing") on MongoDB: after a load the balancer
 * may still migrate usertable's chunks, so polls balancerCollectionStatus until it reports the collection
 * compliant. Past `timeoutMs` the phase goes on and its note says the chunks were still moving; a server without
 * the command (a stand-in) has no balancer, and the note says so.
 */
export async function waitForMongoBalancer(
  command: AdminCommand,
  o: { log?: (l: string) => void; pollMs?: number; timeoutMs?: number } = {},
): Promise<string> {
  const started = Date.now();
  const timeoutMs = o.timeoutMs ?? 3_600_000;
  let last = "";
  for (;;) {
    let verdict: { balanced: boolean; reason: string };
    try {
      verdict = balancerVerdict(await command({ ...BALANCER_STATUS_COMMAND }));
    } catch (err) {
      if (!isBalancerUnsupported(err)) throw err;
      const why = (err as Error).message;
      return `rebalance wait: no balancer answers balancerCollectionStatus (${why}): nothing to wait for`;
    }
    const sec = ((Date.now() - started) / 1000).toFixed(0);
    if (verdict.balanced) return `rebalance wait: mongodb's balancer reports usertable balanced after ${sec} s`;
    if (Date.now() - started >= timeoutMs) {
      return `rebalance wait: usertable still not balanced after ${sec} s (${verdict.reason}): measuring anyway`;
    }
    if (verdict.reason !== last) {
      o.log?.(`settle: mongodb's balancer still moving usertable's chunks (${verdict.reason}), waiting`);
    }
    last = verdict.reason;
    await sleep(o.pollMs ?? 5000);
  }
}

/** The wait over a driver connection to `mongodbUrl`, closed afterwards. */
export async function waitForMongoBalancerAt(mongodbUrl: string, log?: (l: string) => void): Promise<string> {
  const conn = await driverAdminCommand(mongodbUrl);
  try {
    return await waitForMongoBalancer(conn.command, { log });
  } finally {
    await conn.close().catch(() => {});
  }
}

/** A settle's rebalance wait (seed 002 step 2): MongoDB's balancer polled; the other engines move nothing. */
export async function rebalanceWait(
  engine: Engine,
  mongodbUrl: string | undefined,
  log?: (l: string) => void,
): Promise<string> {
  if (engine !== "mongodb") return rebalanceNote(engine);
  if (!mongodbUrl) return "rebalance wait: no mongodb.url to reach the routers: not waited for";
  return waitForMongoBalancerAt(mongodbUrl, log);
}
