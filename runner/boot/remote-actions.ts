import type { ClusterDescription } from "../../model/cluster-description.js";
import type { ReadyMarker } from "../../model/instance-status.js";
import type { Plan, PlanPhase } from "../../model/plan.js";
import { switchCassandraDurableWrites, waitForCassandraCompactions } from "../cassandra-compactions.js";
import { describeReset, type EngineActions } from "../engine-actions.js";
import { rebalanceWait } from "../mongodb-balancer.js";
import type { RunObjects } from "./run-objects.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The non-YCSB phases on a deployed cluster, carried out by client 0 (the others wait at the barrier): the schema is
 * the leader's (prepared at formation, again after a wipe); settling waits for Cassandra's compactions over CQL
 * from the client; a reset is a command to every data node (runs/<id>/cluster/command.json) that each carries out
 * and acknowledges, the leader forming the cluster again after a wipe or restart.
 */
export function remoteActions(o: {
  objects: RunObjects;
  cluster: ClusterDescription;
  marker: () => ReadyMarker;
  onMarker: (m: ReadyMarker) => void;
  log: (line: string) => void;
  /** How long the nodes may take to carry out a reset. @default 1 h */
  resetTimeoutMs?: number;
}): EngineActions {
  const hosts = () => (o.marker().connection.hosts ?? "").split(",").filter(Boolean);
  return {
    async prepareSchema() {
      const m = o.marker();
      return `schema prepared by the leader data node (formed ${m.formedAt}${m.afterCommand !== undefined ? `, after reset ${m.afterCommand}` : ""})`;
    },
    async settle(phase) {
      const sec = phase.settle?.minSec ?? 0;
      if (sec > 0) await sleep(sec * 1000);
      const done: string[] = [];
      if (!phase.settle?.waitForCompactions) done.push(`settled for ${sec} s`);
      else if (o.cluster.engine !== "cassandra")
        done.push(`settled for ${sec} s (no compaction check for ${o.cluster.engine})`);
      else done.push(await waitForCassandraCompactions(hosts(), o.log));
      if (phase.settle?.waitForRebalance) {
        done.push(await rebalanceWait(o.cluster.engine, o.marker().connection["mongodb.url"], o.log));
      }
      // After a load under its own preset, the server side of the run's preset takes over (model/plan.ts serverPreset).
      if (phase.serverPreset && o.cluster.engine === "cassandra")
        done.push(await switchCassandraDurableWrites(hosts(), phase.serverPreset));
      return done.join("; ");
    },
    async reset(phase: PlanPhase, _plan: Plan) {
      const r = phase.reset;
      if (!r) return "reset: nothing asked";
      const id = phase.index;
      await o.objects.putNodeCommand({
        id,
        phase: phase.name,
        action: "reset",
        wipeData: r.wipeData,
        restartServer: r.restartServer,
        dropCaches: r.dropCaches,
        issuedAt: new Date().toISOString(),
      });
      o.log(`reset ${phase.name}: asked ${o.cluster.nodes.length} data node(s) to ${describeReset(phase)}`);
      const deadline = Date.now() + (o.resetTimeoutMs ?? 3_600_000);
      const acks = new Map<number, { ok: boolean; done: string[] }>();
      while (acks.size < o.cluster.nodes.length) {
        for (const n of o.cluster.nodes) {
          if (acks.has(n.index)) continue;
          const ack = await o.objects.nodeAck(id, n.index);
          if (ack) acks.set(n.index, ack);
        }
        if (acks.size < o.cluster.nodes.length) {
          const failed = [...(await o.objects.statuses()).values()].find(
            (s) => s.role === "data" && s.stage === "failed",
          );
          if (failed)
            throw new Error(`reset ${phase.name}: data node ${failed.index} failed: ${failed.detail ?? "no reason"}`);
          if (Date.now() > deadline)
            throw new Error(
              `reset ${phase.name}: ${o.cluster.nodes.length - acks.size} data node(s) did not answer in time`,
            );
          await sleep(3000);
        }
      }
      const bad = [...acks].filter(([, a]) => !a.ok);
      if (bad.length > 0)
        throw new Error(`reset ${phase.name}: ${bad.map(([n, a]) => `node ${n}: ${a.done.join("; ")}`).join(" | ")}`);
      if (r.wipeData || r.restartServer) {
        // The connection the leader publishes after forming again (a stand-in's ports may change with a restart).
        for (;;) {
          const m = await o.objects.readyMarker();
          if (m?.afterCommand === id) {
            o.onMarker(m);
            break;
          }
          if (Date.now() > deadline)
            throw new Error(`reset ${phase.name}: the leader did not publish the cluster again`);
          await sleep(2000);
        }
      }
      return `reset (${describeReset(phase)}): ${[...acks].map(([n, a]) => `node ${n}: ${a.done.join(", ")}`).join("; ")}`;
    },
  };
}
