import { writeReadyMarker } from "../common-install.js";
import type { EngineKit, NodeContext } from "../node-context.js";
import { q, section, waitFor } from "../shell.js";
import { COUCHBASE_BUCKET, couchbaseBucketCreateArgs } from "./schema.js";
import { installCouchbase } from "./install.js";

const CLI = "/opt/couchbase/bin/couchbase-cli";
export const COUCHBASE_ADMIN = "Administrator";

/** Seed 000: "set its ramsize to 3/4 the system RAM"; the bucket takes all of it. */
export function couchbaseRamQuotaMb(memoryGiB: number): number {
  return Math.floor(memoryGiB * 1024 * 0.75);
}

const password = (ctx: NodeContext) => `"$(aws ssm get-parameter --region ${q(ctx.region)} --name ${q(ctx.adminPasswordParameter)} --with-decryption --query Parameter.Value --output text)"`;
const auth = `-u ${COUCHBASE_ADMIN} -p "$CB_PASSWORD"`;
/** curl takes user:password in one -u (couchbase-cli takes -u and -p). */
const curlAuth = `-u "${COUCHBASE_ADMIN}:$CB_PASSWORD"`;

export const couchbaseKit: EngineKit = {
  engine: "couchbase",
  ports: {
    // SDK bootstrap, management and KV (https://docs.couchbase.com/server/current/install/install-ports.html).
    client: [
      { from: 8091, to: 8097, description: "Couchbase REST and services" },
      { from: 11210, to: 11210, description: "Couchbase KV" },
    ],
    cluster: [
      { from: 4369, to: 4369, description: "erlang port mapper" },
      { from: 8091, to: 8097, description: "Couchbase REST and services" },
      { from: 9100, to: 9105, description: "indexer" },
      { from: 11209, to: 11210, description: "KV" },
      { from: 21100, to: 21100, description: "node-to-node" },
    ],
  },
  // Couchbase has no commitlog of its own to move (seed 004 placed nothing on a second device for it).
  wantsLogVolume: () => false,
  install: (ctx) => installCouchbase(ctx.version),
  roles: (ctx) => (ctx.index === 0 ? ["cluster-init", "data"] : ["server-add", "data"]),
  configure(ctx) {
    const leader = ctx.nodeIps[0]!;
    const self = ctx.nodeIps[ctx.index]!;
    const steps = [
      `mkdir -p ${q(`${ctx.dataDir}/couchbase`)} && chown -R couchbase:couchbase ${q(`${ctx.dataDir}/couchbase`)}`,
      waitFor("local Couchbase", "curl -fs http://127.0.0.1:8091/ui/index.html >/dev/null", 600),
      `${CLI} node-init -c 127.0.0.1 -u ${COUCHBASE_ADMIN} -p unused --node-init-data-path ${q(`${ctx.dataDir}/couchbase`)} --node-init-hostname ${q(self)}`,
    ];
    if (ctx.index === 0) {
      steps.push(
        // The admin password never enters Pulumi state: the leader makes it and keeps it in SSM (SecureString).
        `CB_PASSWORD="$(openssl rand -hex 24)"`,
        `aws ssm put-parameter --region ${q(ctx.region)} --name ${q(ctx.adminPasswordParameter)} --type SecureString --overwrite --value "$CB_PASSWORD" >/dev/null`,
        `${CLI} cluster-init -c 127.0.0.1 --cluster-username ${COUCHBASE_ADMIN} --cluster-password "$CB_PASSWORD" --services data --cluster-ramsize ${couchbaseRamQuotaMb(ctx.memoryGiB)}`,
      );
    } else {
      steps.push(
        waitFor("the admin password", `CB_PASSWORD=${password(ctx)} 2>/dev/null`, 1800),
        waitFor("the leader's cluster-init", `curl -fs ${curlAuth} http://${leader}:8091/pools/default >/dev/null`, 1800),
        // seed 000: "joined the cluster by ... requesting a server-add of its own IP address"
        `${CLI} server-add -c ${q(leader)} ${auth} --server-add ${q(self)} --server-add-username ${COUCHBASE_ADMIN} --server-add-password "$CB_PASSWORD" --services data`,
      );
    }
    return steps.join("\n");
  },
  // Study settings are applied only where a renderer takes them (Cassandra today): never ignored silently.
  checkServerSettings: (settings) => Object.keys(settings).map((k) => `"${k}" is not applied for this engine`),
  readinessProbe: (ctx) =>
    `[ "$(curl -fs -u ${COUCHBASE_ADMIN}:${password(ctx)} http://${ctx.nodeIps[0]}:8091/pools/default/buckets/${COUCHBASE_BUCKET} | jq '[.nodes[] | select(.status == "healthy")] | length')" = "${ctx.nodeIps.length}" ]`,
  formCluster(ctx) {
    const n = ctx.nodeIps.length;
    const bucket = couchbaseBucketCreateArgs({ preset: ctx.preset, ramQuotaMb: couchbaseRamQuotaMb(ctx.memoryGiB), replicas: Math.min(3, ctx.replication - 1) });
    return [
      section("wait for every node to be added", waitFor(`${n} nodes`, `[ "$(curl -fs ${curlAuth} http://127.0.0.1:8091/pools/default | jq '.nodes | length')" = "${n}" ]`, 3600)),
      // One rebalance once all nodes are in, instead of one per joining node.
      n > 1 ? section("rebalance", `${CLI} rebalance -c 127.0.0.1 ${auth} --no-progress-bar`) : "",
      section("bucket (full eviction, seed 000)", `${CLI} ${bucket[0]} -c 127.0.0.1 ${auth} ${bucket.slice(1).map(q).join(" ")}`),
      section("wait for the bucket on every node", waitFor("bucket healthy", couchbaseKit.readinessProbe(ctx), 1800)),
      writeReadyMarker(ctx.readyMarkerUrl, { engine: "couchbase", nodes: n, bucket: COUCHBASE_BUCKET, preset: ctx.preset }),
    ]
      .filter(Boolean)
      .join("\n");
  },
};
