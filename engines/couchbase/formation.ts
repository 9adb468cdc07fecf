import type { NodeContext } from "../node-context.js";
import { COUCHBASE_BUCKET, couchbaseBucketParams } from "./schema.js";

/**
 * Couchbase's formation as data (seed 000: cluster-init on the first node, server-add of every other node, one
 * rebalance, the full-eviction bucket), sent through the REST API by the leader's boot command
 * (runner/boot/formation/couchbase.ts): Couchbase docs, "REST API: Initializing a node / Adding nodes / Rebalancing".
 */

export const COUCHBASE_ADMIN = "Administrator";
export const COUCHBASE_REST_PORT = 8091;

/** Seed 000: "set its ramsize to 3/4 the system RAM"; the bucket takes all of it. */
export function couchbaseRamQuotaMb(memoryGiB: number): number {
  return Math.floor(memoryGiB * 1024 * 0.75);
}

/** One REST call: a form-encoded POST to `path` on `host` (GET when there is no form). */
export interface RestCall {
  host: string;
  path: string;
  form?: Record<string, string>;
  /** Sent with the admin credentials (every call once the cluster is initialized). */
  auth: boolean;
  /** What it does, for the marker's steps. */
  what: string;
}

const rest = (ip: string) => `${ip}:${COUCHBASE_REST_PORT}`;

/** Where each node keeps its data and indexes (couchbase-cli node-init --node-init-data-path). */
export function couchbaseDataPaths(dataDir: string): { data: string; index: string } {
  return { data: `${dataDir}/couchbase/data`, index: `${dataDir}/couchbase/index` };
}

/** node-init of a node that is not in the cluster yet: its data path (it answers without credentials until then). */
export function nodeInit(ip: string, dataDir: string): RestCall {
  const p = couchbaseDataPaths(dataDir);
  return {
    host: rest(ip),
    path: "/nodes/self/controller/settings",
    form: { path: p.data, index_path: p.index },
    auth: false,
    what: `node-init ${ip}: data ${p.data}`,
  };
}

/** cluster-init on the leader: its address as its name, the data service, the memory quota, the admin credentials. */
export function clusterInit(ctx: NodeContext, password: string): RestCall[] {
  const ip = ctx.nodeIps[0]!;
  const quota = couchbaseRamQuotaMb(ctx.memoryGiB);
  return [
    // Named by its address, not 127.0.0.1, so the other nodes can reach it (couchbase-cli node-init --node-init-hostname).
    { host: rest(ip), path: "/node/controller/rename", form: { hostname: ip }, auth: false, what: `rename ${ip}` },
    {
      host: rest(ip),
      path: "/node/controller/setupServices",
      form: { services: "kv" },
      auth: false,
      what: "services: data (kv)",
    },
    {
      host: rest(ip),
      path: "/pools/default",
      form: { memoryQuota: String(quota) },
      auth: false,
      what: `memory quota ${quota} MiB (seed 000: 3/4 of RAM)`,
    },
    {
      host: rest(ip),
      path: "/settings/web",
      form: { port: "SAME", username: COUCHBASE_ADMIN, password },
      auth: false,
      what: `admin ${COUCHBASE_ADMIN} (password in SSM)`,
    },
  ];
}

/** server-add of node `ip`, sent to the leader (seed 000: "requesting a server-add of its own IP address"). */
export function addNode(ctx: NodeContext, ip: string, password: string): RestCall {
  return {
    host: rest(ctx.nodeIps[0]!),
    path: "/controller/addNode",
    form: { hostname: ip, user: COUCHBASE_ADMIN, password, services: "kv" },
    auth: true,
    what: `server-add ${ip}`,
  };
}

/** One rebalance once every node is in, instead of one per joining node. */
export function rebalance(ctx: NodeContext, otpNodes: string[]): RestCall {
  return {
    host: rest(ctx.nodeIps[0]!),
    path: "/controller/rebalance",
    form: { knownNodes: otpNodes.join(","), ejectedNodes: "" },
    auth: true,
    what: `rebalance ${otpNodes.length} node(s)`,
  };
}

/** The full-eviction bucket (engines/couchbase/schema.ts), with the study's replicas (at most 3). */
export function createBucket(ctx: NodeContext): RestCall {
  const form = couchbaseBucketParams({
    preset: ctx.preset,
    ramQuotaMb: couchbaseRamQuotaMb(ctx.memoryGiB),
    replicas: Math.min(3, ctx.replication - 1),
  });
  return {
    host: rest(ctx.nodeIps[0]!),
    path: "/pools/default/buckets",
    form,
    auth: true,
    what: `bucket ${COUCHBASE_BUCKET}: ${Object.entries(form)
      .filter(([k]) => k !== "name")
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")}`,
  };
}

/** The parts of GET /pools/default the formation reads. */
export interface PoolNode {
  hostname: string;
  otpNode: string;
  clusterMembership: string;
  status?: string;
}

/** The nodes of the cluster not yet in it, by address (hostname is "<ip>:8091"). */
export function nodesToAdd(ctx: NodeContext, pool: PoolNode[]): string[] {
  const present = new Set(pool.map((n) => n.hostname.replace(/:\d+$/, "")));
  return ctx.nodeIps.filter((ip) => !present.has(ip));
}

/** Ready: every node of the cluster serves the bucket (GET /pools/default/buckets/ycsb, nodes[].status "healthy"). */
export function bucketReadiness(ctx: NodeContext, bucketNodes: Array<{ hostname: string; status: string }>): string[] {
  const healthy = new Set(
    bucketNodes.filter((n) => n.status === "healthy").map((n) => n.hostname.replace(/:\d+$/, "")),
  );
  return ctx.nodeIps
    .filter((ip) => !healthy.has(ip))
    .map((ip) => `${ip} does not serve bucket ${COUCHBASE_BUCKET} yet`);
}

/** KV endpoints of a bucket's cluster map, the document Couchbase Server (and the mock) serves: nodes[].ports.direct. */
export function kvPortsOf(bucket: { nodes?: Array<{ ports?: { direct?: number } }> }): number[] {
  return (bucket.nodes ?? []).map((n) => n.ports?.direct ?? 0).filter((p) => p > 0);
}
