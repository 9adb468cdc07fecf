/** A thread that reads ingest bodies (reader.ts) for the API's thread (threads.ts): one message each way. */
import { parentPort } from "node:worker_threads";
import { readResultsBody } from "./reader.js";

parentPort?.on("message", ({ id, text }: { id: number; text: string }) => {
  try {
    parentPort!.postMessage({ id, read: readResultsBody(text) });
  } catch (e) {
    // Anything unforeseen (a stack overflow on a deep body): the API's thread reads that body itself.
    parentPort!.postMessage({ id, read: null, problem: String(e) });
  }
});
