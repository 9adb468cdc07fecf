/**
 * Facts every document of one run, or of one phase, states the same (the contract: the runner writes them from one
 * plan and one first barrier). A run is stored once and its clients' results are summed per phase, so a document that
 * disagrees with the others (client 1 on t3.micro with replication 1 beside client 0 on i4i.xlarge with replication 3)
 * would be merged into numbers no cluster produced: it is refused, naming the fact. Pure.
 */
import { documentRepeats } from "./aggregate/repeats.js";
import { phaseWorkload } from "./aggregate/rules.js";
import type { ResultDocument } from "./result-document.js";

/** Each run-level fact as compared: a JSON pointer under /run (or "repeat", the run's own) and its value. */
export type Facts = Record<string, string | number | null>;

const instant = (iso: string | undefined) => (iso === undefined ? null : new Date(iso).getTime());

/** A stable text of a JSON value (keys sorted at every level), for facts that are objects; null for none. */
export function sortedJson(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : x && typeof x === "object"
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sort((x as Record<string, unknown>)[k])]),
          )
        : x;
  return JSON.stringify(sort(v));
}

/**
 * Every fact of the document's run. Times compare as instants (an offset is the same start), absent optional facts
 * as null; `/run/repeat` is the run's own repeat (a plan's repeats are phases of one run).
 */
export function runFacts(doc: ResultDocument): Facts {
  const r = doc.run;
  return {
    "/run/scenario": r.scenario,
    "/run/engine": r.engine,
    "/run/engineVersion": r.engineVersion,
    "/run/preset": r.preset,
    "/run/nodes": r.nodes,
    "/run/instanceTypes/data": r.instanceTypes.data,
    "/run/instanceTypes/client": r.instanceTypes.client,
    "/run/storage": r.storage ?? null,
    "/run/region": r.region ?? null,
    "/run/replication": r.replication,
    "/run/ycsbVersion": r.ycsbVersion,
    "/run/bindingsVersion": r.bindingsVersion ?? null,
    "/run/ycsbLabVersion": r.ycsbLabVersion,
    "/run/provenance": sortedJson(r.provenance),
    "/run/repeat": documentRepeats(doc).run,
    "/run/startedAt": instant(r.startedAt),
    // Not /run/finishedAt: a runner writes each phase before its run ends, and the store keeps the latest end it has.
    "/run/standIn": r.standIn ?? null,
    "/run/source": sortedJson(r.source),
  };
}

/** What every client of one phase ran (its clients' sum is the phase's): a phase-level fact per pointer under /phase. */
export function phaseFacts(doc: ResultDocument): Facts {
  const p = doc.phase;
  return {
    "/phase/index": p.index,
    "/phase/kind": p.kind,
    "/phase/workload": phaseWorkload(p),
    "/phase/threadsPerClient": p.threadsPerClient,
    "/phase/target": p.target ?? null,
    "/phase/clients": p.clients,
    "/phase/repeat": documentRepeats(doc).phase,
    "/phase/operationCount": p.operationCount ?? null,
    "/phase/operationCountPer": p.operationCountPer ?? null,
  };
}

/** The facts that differ, as [pointer, first's value, second's value]; facts absent from `b` are not compared. */
export function factDifferences(a: Facts, b: Facts): [string, unknown, unknown][] {
  return Object.keys(a).flatMap((k) =>
    k in b && a[k] !== b[k] ? [[k, a[k], b[k]] as [string, unknown, unknown]] : [],
  );
}

/** A fact's value as a message shows it (instants as ISO times). */
export function showFact(pointer: string, v: unknown): string {
  if (v === null) return "none";
  if (pointer.endsWith("At") && typeof v === "number") return new Date(v).toISOString();
  return JSON.stringify(v);
}
