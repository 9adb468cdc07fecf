import { parseChecked, type RunEnd, RunEndSchema } from "../model/instance-status.js";
import { runEndKey } from "../model/results-layout.js";
import type { ResultsStore } from "./results-store.js";

/** The run's end as stored (undefined while the run goes on); an unreadable object is not an end. */
export async function readRunEnd(store: ResultsStore, runId: string): Promise<RunEnd | undefined> {
  const body = await store.get(runEndKey(runId));
  if (!body) return undefined;
  try {
    return parseChecked<RunEnd>(RunEndSchema, body.toString("utf8"), runEndKey(runId));
  } catch {
    return undefined;
  }
}

/**
 * Records the run's end. An early end keeps the first reason given (the cause, not the peers that stopped because
 * of it); the complete end is written once, by client 0, after every client passed the last barrier.
 */
export async function writeRunEnd(store: ResultsStore, runId: string, end: Omit<RunEnd, "at">): Promise<void> {
  if (!end.complete && (await readRunEnd(store, runId).catch(() => undefined))) return;
  const value: RunEnd = { ...end, at: new Date().toISOString() };
  await store.put(runEndKey(runId), JSON.stringify(value), "application/json");
}

/** The reason an ended run gives a client that is still waiting, or undefined while the run goes on. */
export function endedEarly(end: RunEnd | undefined): string | undefined {
  if (!end || end.complete) return undefined;
  return `${end.by} ended the run: ${end.reason ?? "no reason given"}`;
}
