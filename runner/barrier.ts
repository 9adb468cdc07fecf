import { type Arrival, parseArrival } from "../model/barrier-arrival.js";
import { barrierDir, barrierKey } from "./keys.js";
import type { ResultsStore } from "./results-store.js";
import { RetryDeadlineError, withRetry } from "./retry.js";
import { endedEarly, readRunEnd } from "./run-end.js";

/**
 * Lock-step through the results store (seed 000: all clients run a workload in parallel, and all wait until every
 * client finished before continuing). One object per client per barrier, then polling until all are there: this
 * needs no conditional writes, so it works on S3, on emulators and on a folder alike.
 */
export type { Arrival } from "../model/barrier-arrival.js";

export class BarrierError extends Error {
  constructor(
    message: string,
    readonly missing: number[],
  ) {
    super(message);
  }
}

export interface BarrierOptions {
  clients: number;
  timeoutMs: number;
  pollMs?: number;
  /**
   * A run-level problem that ends the wait at once (a data node failed or fell silent), asked with the run's end
   * (runner/run-end.ts) every few polls: a barrier never waits out its timeout for a run that cannot go on.
   */
  runProblem?: () => Promise<string | undefined>;
  /** Told about every 30 s while clients are missing (for the instance's status: who it waits for, since when). */
  onWait?: (missing: number[], waitedMs: number) => void | Promise<void>;
}

/** Arrive at a barrier and wait for every client; returns all arrivals (index = client). */
export async function passBarrier(
  store: ResultsStore,
  runId: string,
  point: { index: number; name: string },
  me: Omit<Arrival, "arrivedAt" | "status"> & { status?: Arrival["status"] },
  o: BarrierOptions,
): Promise<Arrival[]> {
  const started = Date.now();
  const where = `barrier before phase ${point.index} (${point.name})`;
  const key = barrierKey(runId, point.index, point.name, me.client);
  const deadline = () => Math.max(0, o.timeoutMs - (Date.now() - started));
  const retry = <T>(what: string, fn: () => Promise<T>) =>
    withRetry(what, fn, { baseMs: 200, maxMs: 5_000, deadlineMs: deadline() }).catch((err: unknown) => {
      if (err instanceof RetryDeadlineError)
        throw new BarrierError(`${where}: results store unreachable for ${o.timeoutMs / 1000} s: ${err.message}`, []);
      throw err;
    });

  // A restarted client keeps its first arrival, so stored timestamps stay true.
  const existing = await retry(`read ${key}`, () => store.get(key));
  if (!existing || me.status === "aborted") {
    const arrival: Arrival = { ...me, status: me.status ?? "ready", arrivedAt: new Date().toISOString() };
    await retry(`write ${key}`, () => store.put(key, JSON.stringify(arrival), "application/json"));
  }
  if (me.status === "aborted") return [];

  let toldAt = started;
  for (let poll = 0; ; poll++) {
    if (poll % 4 === 0) {
      // Health that cannot be read is no evidence of a failure: the wait goes on then.
      const problem =
        endedEarly(await readRunEnd(store, runId).catch(() => undefined)) ??
        (await o.runProblem?.().catch(() => undefined));
      if (problem) throw new BarrierError(`${where}: ${problem}`, []);
    }
    const keys = await retry(`list ${barrierDir(runId, point.index, point.name)}`, () =>
      store.list(barrierDir(runId, point.index, point.name)),
    );
    const present = new Set(
      keys
        .map((k) => /client-(\d+)\.json$/.exec(k)?.[1])
        .filter(Boolean)
        .map(Number),
    );
    const missing = Array.from({ length: o.clients }, (_, i) => i).filter((i) => !present.has(i));
    if (missing.length === 0 || poll % 4 === 0) {
      const arrivals = await Promise.all(
        [...present]
          .filter((i) => i < o.clients)
          .map(async (i) => {
            const peerKey = barrierKey(runId, point.index, point.name, i);
            const body = await retry(`read barrier of client ${i}`, () => store.get(peerKey));
            return body ? peerArrival(body.toString("utf8"), peerKey, i, where, missing) : undefined;
          }),
      );
      const aborted = arrivals.find((a) => a?.status === "aborted");
      if (aborted)
        throw new BarrierError(
          `${where}: client ${aborted.client} aborted the run: ${aborted.reason ?? "no reason given"}`,
          missing,
        );
      if (missing.length === 0) return arrivals.filter((a): a is Arrival => !!a).sort((a, b) => a.client - b.client);
    }
    if (missing.length > 0 && Date.now() - toldAt >= 30_000) {
      toldAt = Date.now();
      await o.onWait?.(missing, Date.now() - started);
    }
    if (Date.now() - started > o.timeoutMs) {
      throw new BarrierError(
        `${where}: timed out after ${Math.round(o.timeoutMs / 1000)} s waiting for client(s) ${missing.join(", ")} ` +
          `(arrived: ${[...present].sort((a, b) => a - b).join(", ") || "none"})`,
        missing,
      );
    }
    await new Promise((r) => setTimeout(r, Math.min(o.pollMs ?? 500, deadline() + 1)));
  }
}

/** A peer's arrival as read from the store: a malformed one stops the barrier naming its object and field. */
function peerArrival(text: string, key: string, client: number, where: string, missing: number[]): Arrival {
  let arrival: Arrival;
  try {
    arrival = parseArrival(text, key);
  } catch (err) {
    throw new BarrierError(`${where}: ${(err as Error).message}`, missing);
  }
  if (arrival.client !== client)
    throw new BarrierError(
      `${where}: ${key}: /client: is ${arrival.client}, the object is client ${client}'s`,
      missing,
    );
  return arrival;
}
