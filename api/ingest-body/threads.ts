/**
 * Threads that read large ingest bodies (reader.ts) beside the API's thread, whose one core is otherwise the
 * ingest's limit: parse, check and hashes were about 40 % of its CPU per document (docs/benchmarks.md). The API's
 * thread keeps the HTTP, the database's protocol and the aggregates. A body is read here only when the threads run;
 * any failure of a thread sends its bodies back to the API's thread, which reads them as before.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { typeScriptThreadEntry } from "../typescript-thread.js";
import type { ReadBody } from "./reader.js";

/** Smaller bodies (a dozen documents or fewer) are read on the API's thread: a hop between threads costs more. */
export const THREAD_MIN_BYTES = 64 * 1024;

/** One thread per core but the API's, at most 4: more would only take cores from Postgres on the same machine. */
export const defaultReadThreads = () => Math.max(1, Math.min(4, availableParallelism() - 1));

export interface BodyThreads {
  /** The body read on a thread; null when it is the API thread's to read (small, unusual, or the threads are down). */
  read(text: string): Promise<ReadBody | null>;
  close(): Promise<void>;
}

interface Pending {
  resolve: (read: ReadBody | null) => void;
}

interface Reader {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * The threads run from the checkout's TypeScript (tsx, as the service runs there): the service's single-file bundle
 * (kit/build.ts) has no module a thread could start from, so it reads every body on the API's thread.
 */
function threadSource(): URL | null {
  // Another TypeScript loader than tsx (no entry): the API's thread reads every body.
  return import.meta.url.endsWith(".ts") ? typeScriptThreadEntry(new URL("./thread.ts", import.meta.url).href) : null;
}

export function bodyThreads(count: number, onProblem: (message: string) => void): BodyThreads {
  const source = count > 0 ? threadSource() : null;
  const readers: Reader[] = [];
  let nextId = 1;
  let down = source === null;

  const stop = (reader: Reader, why: string) => {
    if (!down) onProblem(`ingest bodies are read on the API's thread from now on: ${why}`);
    down = true;
    for (const p of reader.pending.values()) p.resolve(null);
    reader.pending.clear();
  };

  const start = (): Reader => {
    const worker = new Worker(source!);
    const reader: Reader = { worker, pending: new Map() };
    worker.on("message", (m: { id: number; read: ReadBody | null; problem?: string }) => {
      const p = reader.pending.get(m.id);
      reader.pending.delete(m.id);
      if (m.problem) onProblem(`a body's reading thread failed (${m.problem}): read on the API's thread`);
      p?.resolve(m.read);
      if (reader.pending.size === 0) worker.unref();
    });
    worker.on("error", (e) => stop(reader, `a reading thread failed: ${e.message}`));
    worker.on("exit", (code) => stop(reader, `a reading thread stopped (exit code ${code})`));
    worker.unref();
    return reader;
  };

  return {
    read(text) {
      if (down || text.length < THREAD_MIN_BYTES) return Promise.resolve(null);
      while (readers.length < count) readers.push(start());
      // The least busy thread takes it.
      let reader = readers[0]!;
      for (const r of readers) if (r.pending.size < reader.pending.size) reader = r;
      const id = nextId++;
      return new Promise((resolve) => {
        reader.pending.set(id, { resolve });
        // Busy, a thread keeps the process alive until it answers; idle, it does not.
        reader.worker.ref();
        reader.worker.postMessage({ id, text });
      });
    },
    async close() {
      down = true;
      await Promise.all(readers.map((r) => r.worker.terminate()));
    },
  };
}
