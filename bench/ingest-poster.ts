/**
 * The ingest bench's load generator on a thread of its own (bench/api.ts): it posts the batches as a fleet's clients
 * would, from outside the service's event loop, so the service's thread does only the service's work. Its own CPU
 * (this thread's, proc(5) /proc/thread-self/stat) is reported so the service's can be told apart from it.
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { type BodyTemplates, bodyMaker } from "./ingest-bodies.js";

export interface PosterJob {
  url: string;
  token: string;
  total: number;
  batch: number;
  concurrency: number;
  templates: BodyTemplates;
}

export interface PosterResult {
  seconds: number;
  /** CPU µs of this thread. */
  cpuUs: number;
}

/** This thread's CPU µs (utime + stime, in clock ticks of USER_HZ = 100). */
function threadCpuUs(): number {
  const stat = readFileSync("/proc/thread-self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * 1e4;
}

const job = workerData as PosterJob;
const { batchBody } = bodyMaker(job.templates);
const cpu0 = threadCpuUs();
const t0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: job.concurrency }, async () => {
    for (;;) {
      const start = next;
      if (start >= job.total) return;
      next += job.batch;
      const res = await fetch(job.url, {
        method: "POST",
        body: batchBody(start, Math.min(job.batch, job.total - start)),
        headers: { "content-type": "application/json", authorization: `Bearer ${job.token}` },
      });
      if (res.status !== 201) throw new Error(`POST /results: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  }),
);
parentPort!.postMessage({
  seconds: (performance.now() - t0) / 1000,
  cpuUs: threadCpuUs() - cpu0,
} satisfies PosterResult);
