import type { NodeContext } from "../../../engines/node-context.js";
import type { ReadyMarker } from "../../../model/instance-status.js";

/**
 * What a leader's formation gets: the node's view of the cluster and a way to report progress (the boot's leader,
 * and `ycsb-lab local up` for the servers it starts on this machine).
 */
export interface FormationContext {
  ctx: NodeContext;
  log: (line: string) => void;
  /** Give up after this long (a cluster that never forms must fail the boot, not hang it). */
  timeoutMs: number;
  /** Set when a stand-in serves instead of the engine (its label): form what it has, and say so in the marker. */
  standIn?: string;
}

/** Leader only: wait until every node serves, prepare the schema, and say how clients reach the cluster. */
export type Formation = (f: FormationContext) => Promise<Omit<ReadyMarker, "formedAt">>;
