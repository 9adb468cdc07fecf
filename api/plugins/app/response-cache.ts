import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";
import { changesSince, onLocalWrite, readDataVersion } from "../../store/data-version.js";
import { affects, type Dependency, type Touched } from "../../store/touched.js";
import { answerDependency, answerKey } from "./cache-keys.js";

/**
 * Answers of the read routes, kept until a write changes them (DESIGN.md: 16 viewers, every route p95 under 250 ms on
 * Postgres and 1 s on PGlite, with a writer beside them). An answer is keyed by its route and normalised query
 * (cache-keys.ts) and dropped only by a write that touched what it depends on (api/store/touched.ts): a fleet
 * finishing phases of one scenario leaves every other scenario's views, the published tables and other runs' pages
 * cached. Other API processes' writes are read from the change log at each request (a primary-key lookup, and the
 * changes only when the version moved); with PGlite this process makes every write and notes it itself. A request for
 * an answer being computed waits for it instead of computing it again; answers carry an ETag (304 on If-None-Match).
 */
export interface ResponseCacheOptions {
  config: AppConfig;
  /** Only GET routes under this prefix. */
  prefix: string;
  /** Memory for answers (the largest, an unfiltered /sweeps over 10,000 runs, is a few MB). */
  maxBytes?: number;
}

interface Answer {
  payload: Buffer;
  contentType: string;
  etag: string;
  bytes: number;
  dependency: Dependency;
}

interface CacheState {
  key: string;
  dependency: Dependency;
  /** How many changes this process had seen when the answer's computation started. */
  seenAtStart: number;
  served?: boolean;
  done?: () => void;
}

declare module "fastify" {
  interface FastifyRequest {
    responseCache?: CacheState;
  }
}

/** How long a request waits for the same answer another request is computing before computing it itself. */
const WAIT_FOR_OTHER_MS = 60_000;
/** Changes remembered to judge answers computed while they happened (a computation takes seconds at most). */
const RECENT_CHANGES = 10_000;

export default fp<ResponseCacheOptions>(
  async (app, { config, prefix, maxBytes = 256 * 1024 * 1024 }) => {
    if (config.responseCache === false) return;
    const db = app.db;
    const answers = new Map<string, Answer>();
    const computing = new Map<string, Promise<void>>();
    let bytes = 0;
    /** Changes seen by this process, in order (the last RECENT_CHANGES), and how many in all. */
    const recent: Touched[] = [];
    let seen = 0;

    const evict = (key: string) => {
      const a = answers.get(key);
      if (a) bytes -= a.bytes;
      answers.delete(key);
    };
    const apply = (touched: Touched) => {
      seen++;
      recent.push(touched);
      if (recent.length > RECENT_CHANGES) recent.shift();
      for (const [key, a] of answers) if (affects(a.dependency, touched)) evict(key);
    };
    const dropEverything = () => apply({ runs: [], everything: true });

    // PGlite: this process owns the directory (api/db/data-dir-lock.ts), so its own writes are all the writes.
    // Postgres: other processes may write; their changes come from the log, this process's own ones too (once each).
    let version: bigint | undefined;
    const stopLocal = app.database.kind === "pglite" ? onLocalWrite(db, apply) : () => {};
    app.addHook("onClose", async () => stopLocal());
    // One catch-up at a time, in order. A request shares the next one not yet started (which reads the version after the
    // request arrived), never one already reading: a write acknowledged just before it is always seen.
    let tail: Promise<void> = Promise.resolve();
    let next: Promise<void> | undefined;
    const catchUp = () => {
      if (next) return next;
      const run = tail.then(() => {
        next = undefined;
        return readChanges();
      });
      next = run;
      tail = run.catch(() => {});
      return run;
    };
    const readChanges = async () => {
      if (app.database.kind === "pglite") return;
      const now = await readDataVersion(db);
      if (version === undefined) version = now;
      if (now === version) return;
      const { changes, complete } = await changesSince(db, version);
      if (!complete) dropEverything();
      for (const c of changes) if (c.version <= now) apply(c.touched);
      version = now;
    };

    const serve = (reply: FastifyReply, req: FastifyRequest, a: Answer) => {
      req.responseCache!.served = true;
      reply.header("etag", a.etag).header("cache-control", "no-cache").header("x-cache", "hit");
      if (req.headers["if-none-match"] === a.etag) return reply.code(304).send();
      return reply.header("content-type", a.contentType).send(a.payload);
    };

    app.addHook("preHandler", async (req, reply) => {
      if (req.method !== "GET" || !req.url.startsWith(prefix)) return;
      await catchUp();
      const route = req.routeOptions.url ?? req.url.split("?")[0]!;
      const params = (req.params ?? {}) as Record<string, unknown>;
      const query = (req.query ?? {}) as Record<string, unknown>;
      const key = answerKey(route, params, query);
      req.responseCache = { key, dependency: answerDependency(route, prefix, params, query), seenAtStart: seen };
      let hit = answers.get(key);
      const other = computing.get(key);
      if (!hit && other) {
        await Promise.race([other, new Promise((r) => setTimeout(r, WAIT_FOR_OTHER_MS).unref())]);
        hit = answers.get(key);
      }
      if (hit) {
        // Least recently used last: re-inserted at the end.
        answers.delete(key);
        answers.set(key, hit);
        return serve(reply, req, hit);
      }
      let done!: () => void;
      computing.set(key, new Promise<void>((r) => (done = r)));
      req.responseCache.seenAtStart = seen;
      req.responseCache.done = () => {
        if (computing.get(key) !== undefined) computing.delete(key);
        done();
      };
    });

    app.addHook("onSend", async (req, reply, payload) => {
      const state = req.responseCache;
      if (!state || state.served) return payload;
      if (reply.statusCode === 200 && (typeof payload === "string" || Buffer.isBuffer(payload))) {
        const etag = `"${createHash("sha1").update(payload).digest("base64url")}"`;
        // x-cache says whether the answer was computed for this request (miss) or kept (hit), as CDNs do.
        reply.header("etag", etag).header("cache-control", "no-cache").header("x-cache", "miss");
        // A write seen while this answer was computed may have changed it: it is served, not kept.
        const changedMeanwhile = recent
          .slice(Math.max(0, recent.length - (seen - state.seenAtStart)))
          .some((t) => affects(state.dependency, t));
        const size = Buffer.byteLength(payload);
        if (!changedMeanwhile && seen - state.seenAtStart <= RECENT_CHANGES && size <= maxBytes / 4) {
          evict(state.key);
          answers.set(state.key, {
            // Kept encoded: a hit writes these bytes as they are, never encoding megabytes of text again per viewer.
            payload: typeof payload === "string" ? Buffer.from(payload) : payload,
            contentType: String(reply.getHeader("content-type") ?? "application/json; charset=utf-8"),
            etag,
            bytes: size,
            dependency: state.dependency,
          });
          bytes += size;
          for (const oldest of answers.keys()) {
            if (bytes <= maxBytes) break;
            evict(oldest);
          }
        }
      }
      state.done?.();
      return payload;
    });

    const finish = async (req: FastifyRequest) => req.responseCache?.done?.();
    app.addHook("onResponse", finish);
    app.addHook("onRequestAbort", finish);
  },
  { name: "response-cache", dependencies: ["database"] },
);
