import { type ClusterDescription, parseClusterDescription } from "../../model/cluster-description.js";
import type { RunEnd } from "../../model/instance-status.js";
import {
  type InstanceStatus,
  type NodeAck,
  NodeAckSchema,
  type NodeCommand,
  NodeCommandSchema,
  parseChecked,
  parseInstanceStatus,
  parseReadyMarker,
  type ReadyMarker,
} from "../../model/instance-status.js";
import type { Plan } from "../../model/plan.js";
import { parsePlan } from "../../model/plan-schema.js";
import {
  clusterKey,
  nodeAckKey,
  nodeCommandKey,
  planKey,
  readyMarkerKey,
  statusKey,
  statusLogKey,
  statusPrefix,
} from "../../model/results-layout.js";
import { openResultsStore } from "../open-results-store.js";
import type { ResultsStore, S3Options } from "../results-store.js";
import { type BackoffOptions, withRetry } from "../retry.js";
import { readRunEnd, writeRunEnd } from "../run-end.js";
import { type BootEnvironment, hostAddress } from "./environment.js";

/** `s3://bucket[/prefix]/runs/<runId>/` -> the store root (bucket and prefix) and the run id. */
export function parseRunUrl(url: string): { root: string; runId: string } {
  const m = /^((?:s3|file):\/\/.+?)\/?runs\/([A-Za-z0-9._:-]{1,200})\/?$/.exec(url);
  if (!m) throw new Error(`--run: expected s3://bucket[/prefix]/runs/<run-id>/, got "${url}"`);
  return { root: m[1]!, runId: m[2]! };
}

const QUICK: BackoffOptions = { baseMs: 500, maxMs: 10_000, deadlineMs: 60_000 };
/** Status and log-tail writes: worth a few tries, never worth holding up the work (or the report of a failure). */
const BEST_EFFORT: BackoffOptions = { baseMs: 250, maxMs: 2_000, deadlineMs: 5_000 };

/**
 * One run's shared objects as an instance reads and writes them: the cluster description and plan the stack
 * uploaded, the leader's readiness marker, every instance's status. Transient store errors are retried for a
 * minute; a refusal (access denied, no such bucket) fails at once naming the key.
 */
export class RunObjects {
  private constructor(
    readonly store: ResultsStore,
    readonly runId: string,
    private readonly env?: BootEnvironment,
  ) {}

  static async open(url: string, env?: BootEnvironment, s3: S3Options = {}): Promise<RunObjects> {
    const { root, runId } = parseRunUrl(url);
    return new RunObjects(await openResultsStore(root, s3), runId, env);
  }

  private async required(key: string): Promise<string> {
    const body = await withRetry(
      `read ${key}`,
      () => this.store.get(key),
      this.env?.readRetryMs ? { ...QUICK, deadlineMs: this.env.readRetryMs } : QUICK,
    );
    if (!body)
      throw Object.assign(
        new Error(`${this.store.uri}/${key}: no such object (was the stack deployed with this run id?)`),
        { permanent: true },
      );
    return body.toString("utf8");
  }

  /** The cluster description, with every address as this boot reaches it (a rehearsal maps them to loopback). */
  async cluster(): Promise<ClusterDescription> {
    const d = parseClusterDescription(await this.required(clusterKey(this.runId)), clusterKey(this.runId));
    if (d.runId !== this.runId)
      throw new Error(`${clusterKey(this.runId)}: describes run "${d.runId}", not "${this.runId}"`);
    if (!this.env) return d;
    const map = (a: string) => hostAddress(this.env!, a);
    return {
      ...d,
      nodes: d.nodes.map((n) => ({ ...n, address: map(n.address) })),
      clients: d.clients.map((c) => ({ ...c, address: map(c.address) })),
    };
  }

  async plan(): Promise<Plan> {
    return parsePlan(await this.required(planKey(this.runId)), planKey(this.runId));
  }

  async readyMarker(): Promise<ReadyMarker | undefined> {
    const body = await withRetry(
      `read ${readyMarkerKey(this.runId)}`,
      () => this.store.get(readyMarkerKey(this.runId)),
      QUICK,
    );
    return body ? parseReadyMarker(body.toString("utf8"), readyMarkerKey(this.runId)) : undefined;
  }

  async putReadyMarker(marker: ReadyMarker): Promise<void> {
    await withRetry(
      `write ${readyMarkerKey(this.runId)}`,
      () => this.store.put(readyMarkerKey(this.runId), JSON.stringify(marker, null, 2), "application/json"),
      QUICK,
    );
  }

  async nodeCommand(): Promise<NodeCommand | undefined> {
    const key = nodeCommandKey(this.runId);
    const body = await withRetry(
      `read ${key}`,
      () => this.store.get(key),
      this.env?.readRetryMs ? { ...QUICK, deadlineMs: this.env.readRetryMs } : QUICK,
    );
    return body ? parseChecked<NodeCommand>(NodeCommandSchema, body.toString("utf8"), key) : undefined;
  }

  async putNodeCommand(command: NodeCommand): Promise<void> {
    const key = nodeCommandKey(this.runId);
    await withRetry(`write ${key}`, () => this.store.put(key, JSON.stringify(command), "application/json"), QUICK);
  }

  async nodeAck(id: number, node: number): Promise<NodeAck | undefined> {
    const key = nodeAckKey(this.runId, id, node);
    const body = await withRetry(
      `read ${key}`,
      () => this.store.get(key),
      this.env?.readRetryMs ? { ...QUICK, deadlineMs: this.env.readRetryMs } : QUICK,
    );
    return body ? parseChecked<NodeAck>(NodeAckSchema, body.toString("utf8"), key) : undefined;
  }

  async putNodeAck(ack: NodeAck): Promise<void> {
    const key = nodeAckKey(this.runId, ack.id, ack.node);
    await withRetry(`write ${key}`, () => this.store.put(key, JSON.stringify(ack), "application/json"), QUICK);
  }

  /** The run's end, once a client recorded it (runner/run-end.ts). */
  async runEnd(): Promise<RunEnd | undefined> {
    return withRetry(`read the run's end`, () => readRunEnd(this.store, this.runId), QUICK);
  }

  /** Ends the run early, naming why (the first cause is kept). */
  async endRun(end: Omit<RunEnd, "at" | "complete">): Promise<void> {
    await withRetry(
      `write the run's end`,
      () => writeRunEnd(this.store, this.runId, { ...end, complete: false }),
      QUICK,
    );
  }

  async putStatus(status: InstanceStatus): Promise<void> {
    const key = statusKey(this.runId, status.instance);
    await withRetry(`write ${key}`, () => this.store.put(key, JSON.stringify(status), "application/json"), BEST_EFFORT);
  }

  async putLogTail(instance: string, text: string): Promise<void> {
    const key = statusLogKey(this.runId, instance);
    await withRetry(`write ${key}`, () => this.store.put(key, text, "text/plain"), BEST_EFFORT);
  }

  async logTail(instance: string): Promise<string | undefined> {
    return (await this.store.get(statusLogKey(this.runId, instance)))?.toString("utf8");
  }

  /** Every instance's last reported status, by instance name. */
  async statuses(): Promise<Map<string, InstanceStatus>> {
    const out = new Map<string, InstanceStatus>();
    const keys = (await this.store.list(statusPrefix(this.runId))).filter((k) => k.endsWith(".json"));
    for (const key of keys) {
      const body = await this.store.get(key);
      const status = body ? parseInstanceStatus(body.toString("utf8")) : undefined;
      if (status) out.set(status.instance, status);
    }
    return out;
  }
}
