import { type InstanceStatus, STALE_HEARTBEAT_SECONDS, silenceSeconds } from "../../model/instance-status.js";

/** Stages in which a data node works and keeps its heartbeat (model/instance-status.ts). */
const WORKING = new Set(["installed", "started", "formed", "ready", "resetting"]);

/**
 * What a client knows is wrong with the cluster from the instances' statuses (pure): a data node that reported its
 * failure, and one that fell silent (no heartbeat for STALE_HEARTBEAT_SECONDS: its machine died, was killed or
 * powered off without a word). Each line names the node, so the run's record says which one ended it.
 */
export function clusterTroubles(statuses: Iterable<InstanceStatus>, now: Date): string[] {
  const out: string[] = [];
  for (const s of statuses) {
    if (s.role !== "data") continue;
    if (s.stage === "failed") out.push(`data node ${s.index} failed at ${s.at}: ${s.detail ?? "no reason given"}`);
    else if (WORKING.has(s.stage) && silenceSeconds(s, now) > STALE_HEARTBEAT_SECONDS) {
      out.push(
        `data node ${s.index} has been silent for ${Math.round(silenceSeconds(s, now))} s (last seen ${s.stage} at ${s.heartbeatAt ?? s.at}): its machine is gone`,
      );
    }
  }
  return out;
}

/**
 * The roll call after a phase in which operations failed (pure): the troubles once known, else the working data
 * nodes not heard from since the phase ended. A node alive rewrites its heartbeat every HEARTBEAT_SECONDS, so the
 * caller asks again until `waitingFor` is empty (the cluster answered) or a trouble appears (a node fell silent).
 */
export function rollCall(
  statuses: Iterable<InstanceStatus>,
  since: Date,
  now: Date,
): { troubles: string[]; waitingFor: number[] } {
  const all = [...statuses];
  const troubles = clusterTroubles(all, now);
  if (troubles.length) return { troubles, waitingFor: [] };
  const waitingFor = all
    .filter((s) => s.role === "data" && WORKING.has(s.stage) && Date.parse(s.heartbeatAt ?? s.at) < since.getTime())
    .map((s) => s.index);
  return { troubles, waitingFor };
}
