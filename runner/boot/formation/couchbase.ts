import { randomBytes } from "node:crypto";
import { couchbaseConnectionProperties } from "../../../engines/couchbase/binding.js";
import {
  addNode,
  bucketReadiness,
  COUCHBASE_ADMIN,
  COUCHBASE_REST_PORT,
  clusterInit,
  createBucket,
  kvPortsOf,
  nodeInit,
  nodesToAdd,
  type PoolNode,
  type RestCall,
  rebalance,
} from "../../../engines/couchbase/formation.js";
import { COUCHBASE_BUCKET } from "../../../engines/couchbase/schema.js";
import { MOCK_BUCKET_PASSWORD } from "../../../engines/couchbase/stand-in.js";
import type { Formation, FormationContext } from "./types.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** Sends one REST call; a refusal is an error naming the call and Couchbase's answer. */
async function send(call: RestCall, password?: string): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (call.auth && password) headers.authorization = basic(COUCHBASE_ADMIN, password);
  if (call.form) headers["content-type"] = "application/x-www-form-urlencoded";
  const method = call.form ? "POST" : "GET";
  const r = await fetch(`http://${call.host}${call.path}`, {
    method,
    headers,
    ...(call.form ? { body: new URLSearchParams(call.form).toString() } : {}),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await r.text();
  if (!r.ok)
    throw new Error(`${call.what}: ${method} http://${call.host}${call.path}: HTTP ${r.status} ${text.slice(0, 500)}`);
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}

async function getJson<T>(url: string, auth?: string): Promise<{ status: number; body?: T }> {
  const r = await fetch(url, { headers: auth ? { authorization: auth } : {}, signal: AbortSignal.timeout(30_000) });
  const text = await r.text();
  if (!r.ok) return { status: r.status };
  return { status: r.status, body: JSON.parse(text) as T };
}

async function until<T>(
  what: string,
  deadline: number,
  log: (l: string) => void,
  attempt: () => Promise<T | string>,
): Promise<T> {
  let logged = "";
  for (;;) {
    let reason: string;
    try {
      const value = await attempt();
      if (typeof value !== "string") return value;
      reason = value;
    } catch (err) {
      reason = (err as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: gave up: ${reason}`);
    if (reason !== logged) log(`waiting for ${what}: ${reason}`);
    logged = reason;
    await sleep(2000);
  }
}

/**
 * The admin password: made by the leader (never in Pulumi state), kept in SSM under the run's parameter path as a
 * SecureString, where clients read it with their role. A restarted leader finds it there and reuses it.
 */
async function adminPassword(f: FormationContext): Promise<{ password: string; made: boolean }> {
  const { SSMClient, GetParameterCommand, PutParameterCommand } = await import("@aws-sdk/client-ssm");
  const ssm = new SSMClient({ region: f.ctx.region });
  const name = f.ctx.adminPasswordParameter;
  try {
    try {
      const r = await ssm.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
      if (r.Parameter?.Value) return { password: r.Parameter.Value, made: false };
    } catch (err) {
      if ((err as { name?: string }).name !== "ParameterNotFound")
        throw new Error(`ssm GetParameter ${name}: ${(err as Error).message}`);
    }
    const password = randomBytes(24).toString("hex");
    await ssm
      .send(new PutParameterCommand({ Name: name, Value: password, Type: "SecureString", Overwrite: true }))
      .catch((err: Error) => {
        throw new Error(`ssm PutParameter ${name}: ${err.message}`);
      });
    return { password, made: true };
  } finally {
    ssm.destroy();
  }
}

/** The stand-in: no cluster to form; its KV ports (the mock picks them) go into the marker's connection. */
async function formOnMock(f: FormationContext, standIn: string) {
  const ip = f.ctx.nodeIps[0]!;
  const url = `http://${ip}:${COUCHBASE_REST_PORT}/pools/default/buckets/${COUCHBASE_BUCKET}`;
  const ports = await until(`${standIn}'s cluster map on ${ip}`, Date.now() + f.timeoutMs, f.log, async () => {
    const r = await getJson<Parameters<typeof kvPortsOf>[0]>(url, basic(COUCHBASE_BUCKET, MOCK_BUCKET_PASSWORD));
    const kv = r.body ? kvPortsOf(r.body) : [];
    return kv.length > 0 ? kv : `HTTP ${r.status}, ${kv.length} KV port(s)`;
  });
  return {
    engine: "couchbase",
    nodes: f.ctx.nodeIps.length,
    preset: f.ctx.preset,
    // The mock's bucket password guards a throw-away bucket on loopback: it travels in the marker, unlike a real one.
    connection: couchbaseConnectionProperties({
      connectionString: `couchbase://${ports.map((p) => `${ip}:${p}`).join(",")}`,
      username: COUCHBASE_BUCKET,
      password: MOCK_BUCKET_PASSWORD,
    }),
    standIn,
    steps: [
      `stand-in: ${standIn}: no cluster-init, server-add, rebalance or bucket settings to form (the mock serves bucket ${COUCHBASE_BUCKET} as it starts; full eviction does not apply)`,
      `KV on ${ports.map((p) => `${ip}:${p}`).join(", ")} (ports the mock chose)`,
    ],
  };
}

/**
 * Couchbase (seed 000): each node's data path (node-init); cluster-init on the leader with a password it makes and
 * keeps in SSM; server-add of every other node; one rebalance; the full-eviction bucket; ready when every node serves
 * the bucket. All through the REST API from here: no couchbase-cli, curl or jq on the instance. Clients get the
 * password's SSM name (secretConnection), never the password.
 */
export const formCouchbase: Formation = async (f) => {
  if (f.standIn) return formOnMock(f, f.standIn);
  const { ctx, log } = f;
  const deadline = Date.now() + f.timeoutMs;
  const leader = ctx.nodeIps[0]!;
  const steps: string[] = [];
  const { password, made } = await adminPassword(f);
  steps.push(
    made
      ? `admin password made and stored in SSM ${ctx.adminPasswordParameter}`
      : `admin password found in SSM ${ctx.adminPasswordParameter}`,
  );
  const auth = basic(COUCHBASE_ADMIN, password);
  const pool = async () =>
    (await getJson<{ nodes: PoolNode[] }>(`http://${leader}:${COUCHBASE_REST_PORT}/pools/default`, auth)).body?.nodes;

  for (const ip of ctx.nodeIps) {
    await until(`Couchbase on ${ip}`, deadline, log, async () => {
      const r = await fetch(`http://${ip}:${COUCHBASE_REST_PORT}/pools`, { signal: AbortSignal.timeout(10_000) }).catch(
        (err: Error) => err,
      );
      return r instanceof Error ? r.message : r.status < 500 ? true : `HTTP ${r.status}`;
    });
  }
  // A restarted leader finds its cluster initialized (its credentials work): it goes on from there.
  let members = await pool();
  if (!members) {
    for (const ip of ctx.nodeIps) {
      const call = nodeInit(ip, ctx.dataDir);
      await send(call);
      steps.push(call.what);
    }
    for (const call of clusterInit(ctx, password)) {
      await send(call);
      steps.push(call.what);
    }
    members = await until("the leader's cluster-init", deadline, log, async () => (await pool()) ?? "no pool yet");
  }
  for (const ip of nodesToAdd(ctx, members)) {
    const call = addNode(ctx, ip, password);
    await send(call, password);
    steps.push(call.what);
  }
  members = (await pool()) ?? members;
  if (members.some((n) => n.clusterMembership !== "active")) {
    const call = rebalance(
      ctx,
      members.map((n) => n.otpNode),
    );
    await send(call, password);
    steps.push(call.what);
    await until("the rebalance", deadline, log, async () => {
      const progress = (
        await getJson<{ status: string }>(
          `http://${leader}:${COUCHBASE_REST_PORT}/pools/default/rebalanceProgress`,
          auth,
        )
      ).body;
      if (progress?.status !== "none") return `rebalance ${progress?.status ?? "unknown"}`;
      const now = (await pool()) ?? [];
      const inactive = now.filter((n) => n.clusterMembership !== "active");
      // Rebalance ended; a node still not active means it failed (Couchbase logs why in the leader's error.log).
      if (inactive.length > 0)
        throw Object.assign(
          new Error(`rebalance ended with ${inactive.map((n) => `${n.hostname} ${n.clusterMembership}`).join(", ")}`),
          { permanent: true },
        );
      return true;
    });
  }
  const bucketUrl = `http://${leader}:${COUCHBASE_REST_PORT}/pools/default/buckets/${COUCHBASE_BUCKET}`;
  if ((await getJson(bucketUrl, auth)).status === 404) {
    const call = createBucket(ctx);
    await send(call, password);
    steps.push(call.what);
  }
  await until(`bucket ${COUCHBASE_BUCKET} on every node`, deadline, log, async () => {
    const nodes =
      (await getJson<{ nodes: Array<{ hostname: string; status: string }> }>(bucketUrl, auth)).body?.nodes ?? [];
    const reasons = bucketReadiness(ctx, nodes);
    return reasons.length === 0 ? true : reasons.join("; ");
  });
  steps.push(`bucket ${COUCHBASE_BUCKET} healthy on ${ctx.nodeIps.length} node(s)`);
  return {
    engine: "couchbase",
    nodes: ctx.nodeIps.length,
    preset: ctx.preset,
    connection: couchbaseConnectionProperties({
      connectionString: `couchbase://${ctx.nodeIps.join(",")}`,
      username: COUCHBASE_ADMIN,
    }),
    secretConnection: { "couchbase.password": ctx.adminPasswordParameter },
    steps,
  };
};
