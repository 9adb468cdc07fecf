import { MONGODB_COLLECTION, MONGODB_DATABASE } from "./schema.js";

/**
 * Whether MongoDB's balancer still has chunks of usertable to move: `balancerCollectionStatus` on a mongos (MongoDB
 * 4.4+, https://www.mongodb.com/docs/manual/reference/command/balancerCollectionStatus/) answers
 * `{balancerCompliant: true}` when no chunk needs moving, else `false` with the first reason
 * (`firstComplianceViolation`: chunksImbalance, draining, zoneViolation, defragmentingChunks).
 */
export const BALANCER_STATUS_COMMAND = {
  balancerCollectionStatus: `${MONGODB_DATABASE}.${MONGODB_COLLECTION}`,
} as const;

/** What one balancerCollectionStatus reply says: balanced, or the reason chunks still move. */
export function balancerVerdict(reply: Record<string, unknown>): { balanced: boolean; reason: string } {
  if (reply.ok !== undefined && Number(reply.ok) !== 1) {
    return { balanced: false, reason: `balancerCollectionStatus failed: ${String(reply.errmsg ?? "no message")}` };
  }
  if (typeof reply.balancerCompliant !== "boolean") {
    const answered = JSON.stringify(reply);
    return { balanced: false, reason: `balancerCollectionStatus answered without balancerCompliant: ${answered}` };
  }
  if (reply.balancerCompliant) return { balanced: true, reason: "balancerCompliant" };
  return { balanced: false, reason: String(reply.firstComplianceViolation ?? "not compliant, no reason given") };
}

/**
 * A server without the command: MongoDB's CommandNotFound (code 59), as a stand-in (FerretDB) or an unsharded
 * mongod answers; there is no balancer to wait for.
 */
export function isBalancerUnsupported(err: unknown): boolean {
  const e = err as { code?: unknown; codeName?: unknown; message?: unknown };
  if (e?.code === 59 || e?.codeName === "CommandNotFound") return true;
  return /no such (cmd|command)|not implemented/i.test(String(e?.message ?? ""));
}
