import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";
import { localWriteCount, readDataVersion } from "../../store/data-version.js";

/**
 * Answers of the read routes, kept until the next write (DESIGN.md: 16 viewers, every route p95 under 250 ms on
 * Postgres and 1 s on PGlite). The views aggregate thousands of phases in JavaScript, one request at a time per
 * process; a team looks at the same views over and over while results change a few times a minute at most. So an
 * answer is computed once per data version (api/store/data-version.ts, moved by every write in its transaction) and
 * served from memory after that; a request for an answer being computed waits for it instead of computing it again.
 * Answers carry an ETag: a browser revalidating gets 304. A write invalidates everything at once: simple, and exact.
 */
export interface ResponseCacheOptions {
  config: AppConfig;
  /** Only GET routes under this prefix. */
  prefix: string;
  /** Memory for answers (the largest, an unfiltered /sweeps over 10,000 runs, is about 10 MB). */
  maxBytes?: number;
}

interface Answer {
  payload: string | Buffer;
  contentType: string;
  etag: string;
  bytes: number;
}

interface CacheState {
  key?: string;
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

export default fp<ResponseCacheOptions>(
  async (app, { config, prefix, maxBytes = 256 * 1024 * 1024 }) => {
    if (config.responseCache === false) return;
    const db = app.db;
    // PGlite: this process owns the directory (api/db/data-dir-lock.ts), so its own count of writes is the version;
    // Postgres: other API processes may write, so the version is read at every request (a primary-key lookup).
    const pgliteBase = app.database.kind === "pglite" ? await readDataVersion(db) : undefined;
    const version = async () => `${pgliteBase ?? (await readDataVersion(db))}.${localWriteCount(db)}`;

    const answers = new Map<string, Answer>();
    const computing = new Map<string, Promise<void>>();
    let bytes = 0;
    let current = "";

    const evict = (key: string) => {
      const a = answers.get(key);
      if (a) bytes -= a.bytes;
      answers.delete(key);
    };

    const serve = (reply: FastifyReply, req: FastifyRequest, a: Answer) => {
      req.responseCache!.served = true;
      reply.header("etag", a.etag).header("cache-control", "no-cache");
      if (req.headers["if-none-match"] === a.etag) return reply.code(304).send();
      return reply.header("content-type", a.contentType).send(a.payload);
    };

    app.addHook("preHandler", async (req, reply) => {
      if (req.method !== "GET" || !req.url.startsWith(prefix)) return;
      const v = await version();
      if (v !== current) {
        // Versions only move forward: answers of an older one are never asked for again.
        answers.clear();
        bytes = 0;
        current = v;
      }
      const key = `${v} ${req.url}`;
      req.responseCache = { key };
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
      req.responseCache.done = () => {
        computing.delete(key);
        done();
      };
    });

    app.addHook("onSend", async (req, reply, payload) => {
      const state = req.responseCache;
      if (!state?.key || state.served) return payload;
      const key = state.key;
      if (reply.statusCode === 200 && (typeof payload === "string" || Buffer.isBuffer(payload)) && key.startsWith(`${current} `)) {
        const size = Buffer.byteLength(payload);
        const etag = `"${createHash("sha1").update(key).digest("base64url")}"`;
        reply.header("etag", etag).header("cache-control", "no-cache");
        if (size <= maxBytes / 4) {
          answers.set(key, { payload, contentType: String(reply.getHeader("content-type") ?? "application/json; charset=utf-8"), etag, bytes: size });
          bytes += size;
          for (const oldest of answers.keys()) {
            if (bytes <= maxBytes) break;
            evict(oldest);
          }
        }
      }
      return payload;
    });

    const finish = async (req: FastifyRequest) => req.responseCache?.done?.();
    app.addHook("onResponse", finish);
    app.addHook("onRequestAbort", finish);
  },
  { name: "response-cache", dependencies: ["database"] },
);
