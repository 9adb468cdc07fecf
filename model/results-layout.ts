/**
 * Where a run's objects live in the results store (S3 bucket/prefix or a folder), as pure functions: the one
 * layout infra uploads into, instances and the runner write with, and the API's S3 import reads with.
 *   <prefix>/runs/<runId>/plan.json, cluster.json            (uploaded by the stack)
 *   <prefix>/runs/<runId>/cluster/ready.json                   (the leader data node, once formed)
 *   <prefix>/runs/<runId>/status/<instance>.json (+ .log)     (every instance: its boot stage, its log tail on failure)
 *   <prefix>/runs/<runId>/barriers/<index>-<name>/client-<i>.json  (the clients' lock-step)
 *   <prefix>/runs/<runId>/capacity/<index>-<name>.json          (client 0: a capacity step's decided target)
 *   <prefix>/runs/<runId>/manifest.json
 *   <prefix>/runs/<runId>/phases/<phaseIndex>-<phaseName>/client-<i>/result.json (+ stdout.txt, stderr.txt, hdr/*.hdr)
 *   <prefix>/kits/<sha256>.tar.gz                              (what instances run, by content hash; shared by runs)
 *   <prefix>/artifacts/<runId>/<digest>/<name>                  (a run's mirror of engine downloads, expired early)
 */
export const RESULT_FILE = "result.json";
export const MANIFEST_FILE = "manifest.json";

/** Joins an optional prefix ("bench/2025", "bench/2025/", "") and a relative key with exactly one "/". */
export function withPrefix(prefix: string | undefined, key: string): string {
  const p = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  return p ? `${p}/${key}` : key;
}

export const runPrefix = (runId: string): string => `runs/${runId}/`;
export const manifestKey = (runId: string): string => `${runPrefix(runId)}${MANIFEST_FILE}`;
/** The plan every client runs (model/plan.ts), as the stack uploaded it. */
export const planKey = (runId: string): string => `${runPrefix(runId)}plan.json`;
/** The cluster description (model/cluster-description.ts) every instance boots from. */
export const clusterKey = (runId: string): string => `${runPrefix(runId)}cluster.json`;
/** What data nodes write: the readiness marker, and nothing else of the run's results. */
export const clusterPrefix = (runId: string): string => `${runPrefix(runId)}cluster/`;
/** Written by the leader data node once the cluster is formed and the schema prepared: the clients' start signal. */
export const readyMarkerKey = (runId: string): string => `${clusterPrefix(runId)}ready.json`;
/**
 * What client 0 asks the data nodes to do between phases (a plan's reset: wipe, restart, drop caches): one object,
 * overwritten per command, so nodes poll a known key and need no list permission.
 */
export const nodeCommandKey = (runId: string): string => `${clusterPrefix(runId)}command.json`;
/** The run's end (model/instance-status.ts RunEnd): under cluster/, so data nodes, which read only there, see it. */
export const runEndKey = (runId: string): string => `${clusterPrefix(runId)}end.json`;
/** Each node's answer to command `id` (the reset phase's index). */
export const nodeAckKey = (runId: string, id: number, node: number): string =>
  `${clusterPrefix(runId)}acks/${id}/node-${node}.json`;
export const statusPrefix = (runId: string): string => `${runPrefix(runId)}status/`;
/** One instance's boot stage (model/instance-status.ts); `instance` is "node-<i>" or "client-<i>". */
export const statusKey = (runId: string, instance: string): string => `${statusPrefix(runId)}${instance}.json`;
/** The tail of a failed instance's boot log, beside its status. */
export const statusLogKey = (runId: string, instance: string): string => `${statusPrefix(runId)}${instance}.log`;
/** Every run's engine mirrors live under this prefix (the results bucket expires them: infra/results-bucket.ts). */
export const ARTIFACTS_PREFIX = "artifacts/";
/** One run's mirror of engine downloads: only that run's data nodes read and write it (infra/policies.ts). */
export const artifactsPrefix = (runId: string): string => `${ARTIFACTS_PREFIX}${runId}/`;
/**
 * An engine distribution mirrored in the bucket for one run, by the digest its vendor publishes: the leader data node
 * fetches it from the vendor once, every other node of the run takes it from here.
 */
export const artifactKey = (runId: string, digest: string, name: string): string =>
  `${artifactsPrefix(runId)}${digest}/${name}`;
/** The leader's progress on that download (bytes so far, or a failure), so the others wait while it moves. */
export const artifactProgressKey = (runId: string, digest: string, name: string): string =>
  `${artifactKey(runId, digest, name)}.progress.json`;
/** The next target of a capacity search (runner/capacity-decision.ts): client 0 writes it, every client reads it. */
export const capacityDecisionKey = (runId: string, index: number, name: string): string =>
  `${runPrefix(runId)}capacity/${index}-${name}.json`;
/** One object per client per barrier (runner/barrier.ts). */
export const barrierDir = (runId: string, index: number, name: string): string =>
  `${runPrefix(runId)}barriers/${index}-${name}/`;
export const barrierKey = (runId: string, index: number, name: string, client: number): string =>
  `${barrierDir(runId, index, name)}client-${client}.json`;

/**
 * The keys client `i` writes, as IAM resource patterns ("*" matches any characters): its own results, barrier
 * arrivals and status, and the run's end (any client may end the run early, naming why); client 0 also the run's
 * manifest and the data nodes' command object. Nothing else of the run (plan.json, cluster.json, the readiness
 * marker, another client's objects) is a client's to write.
 */
export function clientWriteKeys(runId: string, client: number): string[] {
  const run = runPrefix(runId);
  return [
    `${run}phases/*/client-${client}/*`,
    `${run}barriers/*/client-${client}.json`,
    statusKey(runId, instanceOf("client", client)),
    statusLogKey(runId, instanceOf("client", client)),
    runEndKey(runId),
    ...(client === 0 ? [manifestKey(runId), nodeCommandKey(runId), `${run}capacity/*`] : []),
  ];
}

const instanceOf = (role: "client" | "node", index: number) => `${role}-${index}`;
/** A kit (what instances run: the CLI bundle and the Java pieces) by the SHA-256 of its archive, outside any run. */
export const kitKey = (sha256: string): string => `kits/${sha256}.tar.gz`;
export const phaseDir = (runId: string, phaseIndex: number, phaseName: string): string =>
  `${runPrefix(runId)}phases/${phaseIndex}-${phaseName}/`;
export const clientDir = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${phaseDir(runId, phaseIndex, phaseName)}client-${clientIndex}/`;
export const resultKey = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${clientDir(runId, phaseIndex, phaseName, clientIndex)}${RESULT_FILE}`;
export const stdoutKey = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${clientDir(runId, phaseIndex, phaseName, clientIndex)}stdout.txt`;
export const stderrKey = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${clientDir(runId, phaseIndex, phaseName, clientIndex)}stderr.txt`;
/** YCSB writes one interval log per operation group: hdr/<OPERATION>.hdr. */
export const hdrLogKey = (
  runId: string,
  phaseIndex: number,
  phaseName: string,
  clientIndex: number,
  operation: string,
): string => `${clientDir(runId, phaseIndex, phaseName, clientIndex)}hdr/${operation}.hdr`;

export type ResultsObject =
  | { kind: "manifest"; runId: string }
  | { kind: "result" | "stdout" | "stderr"; runId: string; phaseIndex: number; phaseName: string; clientIndex: number }
  | { kind: "hdr"; runId: string; phaseIndex: number; phaseName: string; clientIndex: number; operation: string };

const CLIENT_OBJECT =
  /^runs\/([^/]+)\/phases\/(\d+)-([^/]+)\/client-(\d+)\/(result\.json|stdout\.txt|stderr\.txt|hdr\/([^/]+)\.hdr)$/;
const MANIFEST = /^runs\/([^/]+)\/manifest\.json$/;

/** Reads a key relative to the prefix; undefined for anything else in the bucket (barriers, plan.json, strangers). */
export function parseResultsKey(relativeKey: string): ResultsObject | undefined {
  const m = MANIFEST.exec(relativeKey);
  if (m) return { kind: "manifest", runId: m[1]! };
  const c = CLIENT_OBJECT.exec(relativeKey);
  if (!c) return undefined;
  const base = { runId: c[1]!, phaseIndex: Number(c[2]), phaseName: c[3]!, clientIndex: Number(c[4]) };
  const file = c[5]!;
  if (file === "result.json") return { kind: "result", ...base };
  if (file === "stdout.txt") return { kind: "stdout", ...base };
  if (file === "stderr.txt") return { kind: "stderr", ...base };
  return { kind: "hdr", ...base, operation: c[6]! };
}

const STATUS_OBJECT = /^runs\/([^/]+)\/status\/((?:node|client|dashboard)-\d+)\.json$/;

/** An instance's status marker (`statusKey`) by its run and instance; undefined for any other key. */
export function parseStatusKey(relativeKey: string): { runId: string; instance: string } | undefined {
  const m = STATUS_OBJECT.exec(relativeKey);
  return m ? { runId: m[1]!, instance: m[2]! } : undefined;
}

/** Strips the prefix from a full key; undefined when the key is not under it. */
export function relativeToPrefix(prefix: string | undefined, key: string): string | undefined {
  const p = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  if (!p) return key;
  return key.startsWith(`${p}/`) ? key.slice(p.length + 1) : undefined;
}

/** The run's own objects that are not results: the plan, the cluster's, the instances' status, the barriers. */
const RUN_LAYOUT = /^runs\/[^/]+\/(plan\.json|cluster\.json|cluster\/.+|status\/.+|barriers\/.+)$/;

/**
 * What an importer makes of a key under the prefix: one of the results it reads (`parseResultsKey`), one of the run's
 * other objects (`layout`: read by others, nothing to import), or a key the layout does not know (`unknown`, e.g.
 * ".../result.json/", "...//result.json", ".../RESULT.JSON"), which an importer reports rather than passes over.
 */
export function classifyKey(relativeKey: string): ResultsObject | { kind: "layout" } | { kind: "unknown" } {
  const parsed = parseResultsKey(relativeKey);
  if (parsed) return parsed;
  return RUN_LAYOUT.test(relativeKey) ? { kind: "layout" } : { kind: "unknown" };
}
