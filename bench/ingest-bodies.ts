/**
 * The ingest bench's request bodies (bench/api.ts), made without cloning a document: each of the two template
 * documents' JSON split at the fields that vary, and spliced with those fields' values. Plain data in, strings out,
 * so the load generator can run on a thread of its own (bench/ingest-poster.ts) with the same bodies and batches.
 */
import { ENGINES } from "../model/engine.js";
import { PRESETS } from "../model/presets.js";

export const CLIENTS = 10;
export const PHASES = 10;
export const NODES = [1, 2, 4, 8, 16];

/** Each template's JSON split at its varying fields (odd entries name the field), and its overall figures. */
export interface BodyTemplates {
  parts: readonly (readonly string[])[];
  overall: readonly { runtimeMs: number; throughputOpsSec: number }[];
}

/** More nodes, more throughput: the same operations in less time (the contract checks throughput x runtime). */
export function speedup(nodes: number, i: number): number {
  return nodes * (1 + (i % 7) / 100);
}

/** The varying fields of document i: run i / (PHASES x CLIENTS), a thread step per phase, one client each. */
export function variedFields(i: number, overall: BodyTemplates["overall"]) {
  const run = Math.floor(i / (PHASES * CLIENTS));
  const phase = Math.floor(i / CLIENTS) % PHASES;
  const client = i % CLIENTS;
  const nodes = NODES[Math.floor(run / ENGINES.length) % NODES.length]!;
  return {
    runId: `bench-${run}`,
    engine: ENGINES[run % ENGINES.length]!,
    nodes,
    preset: PRESETS[run % PRESETS.length]!,
    repeat: Math.floor(run / 60),
    phaseName: `${phase < 5 ? "a" : "b"}-t${2 ** ((phase % 5) + 2)}`,
    phaseIndex: phase,
    workload: phase < 5 ? "a" : "b",
    threads: 2 ** ((phase % 5) + 2),
    client,
    throughput: overall[client % 2]!.throughputOpsSec * speedup(nodes, i),
    runtimeMs: overall[client % 2]!.runtimeMs / speedup(nodes, i),
  };
}

/** Document i's JSON and a batch's, from the templates. */
export function bodyMaker(t: BodyTemplates) {
  const bodyOf = (i: number): string => {
    const d = variedFields(i, t.overall);
    const parts = t.parts[d.client % 2]!;
    let out = "";
    for (let k = 0; k < parts.length; k++)
      out += k % 2 === 0 ? parts[k] : JSON.stringify(d[parts[k] as keyof typeof d]);
    return out;
  };
  const batchBody = (start: number, n: number) =>
    `[${Array.from({ length: n }, (_, k) => bodyOf(start + k)).join(",")}]`;
  return { bodyOf, batchBody };
}

/**
 * Runs `work(start, n)` over `total` documents in batches of `batch`, `concurrency` at a time (each worker takes the
 * next batch when its last one is done); returns the seconds it took.
 */
export async function inBatches(
  total: number,
  batch: number,
  concurrency: number,
  work: (start: number, n: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const start = next;
        if (start >= total) return;
        next += batch;
        await work(start, Math.min(batch, total - start));
      }
    }),
  );
  return (performance.now() - t0) / 1000;
}
