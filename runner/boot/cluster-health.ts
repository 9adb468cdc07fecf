import { silenceSeconds, STALE_HEARTBEAT_SECONDS, type InstanceStatus } from "../../model/instance-status.js";

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
      out.push(`data node ${s.index} has been silent for ${Math.round(silenceSeconds(s, now))} s (last seen ${s.stage} at ${s.heartbeatAt ?? s.at}): its machine is gone`);
    }
  }
  return out;
}
