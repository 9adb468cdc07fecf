/**
 * The ingest bench's load generator on a thread of its own (bench/api.ts): it posts the batches as a fleet's clients
 * would, from outside the service's event loop, so the service's thread does only the service's work. Its own CPU
 * (this thread's, bench/cpu-use.ts threadCpuUs) is reported so the service's can be told apart from it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { threadCpuUs } from "./cpu-use.js";
import { type BodyTemplates, bodyMaker, inBatches } from "./ingest-bodies.js";

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

const job = workerData as PosterJob;
const { batchBody } = bodyMaker(job.templates);
const cpu0 = threadCpuUs();
const seconds = await inBatches(job.total, job.batch, job.concurrency, async (start, n) => {
  const res = await fetch(job.url, {
    method: "POST",
    body: batchBody(start, n),
    headers: { "content-type": "application/json", authorization: `Bearer ${job.token}` },
  });
  if (res.status !== 201) throw new Error(`POST /results: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
});
parentPort!.postMessage({ seconds, cpuUs: threadCpuUs() - cpu0 } satisfies PosterResult);
