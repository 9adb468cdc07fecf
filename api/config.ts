import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/**
 * Where local data lives by default: a checkout's own .local (run from source, whatever the working directory), and
 * for an installed package (the server package's bundle, kit/packages.ts) the .local of the working directory, never
 * a folder inside node_modules that the next install replaces.
 */
const LOCAL_DIR = import.meta.url.endsWith(".ts")
  ? fileURLToPath(new URL("../.local/", import.meta.url))
  : join(process.cwd(), ".local");

/** The service's environment, checked by a schema at start (fastify/demo's env plugin, done with TypeBox). */
export const EnvSchema = Type.Object({
  HOST: Type.String({ default: "127.0.0.1" }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  /** Postgres; without it the embedded PGlite store in PGLITE_DIR is used. */
  DATABASE_URL: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
  PGLITE_DIR: Type.String({ default: join(LOCAL_DIR, "pglite") }),
  /** Bearer token for writes. Unset: the one kept in YCSB_LAB_TOKEN_FILE (generated there on first start). */
  YCSB_LAB_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  YCSB_LAB_TOKEN_FILE: Type.String({ default: join(LOCAL_DIR, "write-token") }),
  /** The write token's name: who the audit of a run says quarantined or deleted it (GET /runs/:id/audit). */
  YCSB_LAB_TOKEN_NAME: Type.String({
    default: "write-token",
    minLength: 1,
    maxLength: 100,
    pattern: "^[A-Za-z0-9._@-]+$",
  }),
  /** More write tokens, each named for the audit: "alice=<token>,ci=<token>" (tokens of at least 16 characters). */
  YCSB_LAB_TOKENS: Type.Optional(
    Type.String({ pattern: "^[A-Za-z0-9._@-]+=[^,=\\s]{16,}(,[A-Za-z0-9._@-]+=[^,=\\s]{16,})*$" }),
  ),
  YCSB_LAB_PROTECT_READS: Type.Union([Type.Literal("0"), Type.Literal("1")], { default: "0" }),
  /**
   * With YCSB_LAB_PROTECT_READS=1, a token that may read but not write (viewers of a shared service): sent as
   * `Authorization: Bearer <token>`, or as the password of HTTP Basic auth, which browsers ask for themselves.
   */
  YCSB_LAB_READ_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 16 * 1024 * 1024 }),
  /**
   * Threads that read large ingest bodies (parse, check, hashes) beside the API's thread; unset: one per core but the
   * API's, at most 4; 0: the API's thread reads every body.
   */
  INGEST_READ_THREADS: Type.Optional(Type.Integer({ minimum: 0, maximum: 16 })),
  RATE_LIMIT_MAX: Type.Integer({ minimum: 1, default: 1200 }),
  RATE_LIMIT_WINDOW: Type.String({ default: "1 minute" }),
  /**
   * Behind a reverse proxy or load balancer: which proxies to believe about the client's address (X-Forwarded-For),
   * so the rate limit is per client, not per proxy. "true" (any), a hop count, or comma-separated addresses/CIDRs.
   */
  TRUST_PROXY: Type.String({ default: "false", pattern: "^(true|false|\\d+|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$" }),
  /** A request (headers and body) must arrive within this many seconds, or it is answered 408 and its connection closed. */
  REQUEST_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, maximum: 3600, default: 60 }),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: "^https?://" })),
  S3_REGION: Type.String({ default: "us-east-1" }),
  /** Poll this bucket/prefix for new runs every S3_POLL_SECONDS (the cloud deployment); off when unset. */
  S3_POLL_BUCKET: Type.Optional(Type.String({ minLength: 3 })),
  S3_POLL_PREFIX: Type.String({ default: "" }),
  /** More buckets to poll, comma-separated, each "bucket" or "bucket/prefix/" (the dashboard service imports every scenario's bucket). */
  S3_POLL_BUCKETS: Type.Optional(
    Type.String({ pattern: "^[a-z0-9][a-z0-9.-]+[a-z0-9](/[^,]*)?(,[a-z0-9][a-z0-9.-]+[a-z0-9](/[^,]*)?)*$" }),
  ),
  S3_POLL_SECONDS: Type.Integer({ minimum: 5, default: 60 }),
  LOG_LEVEL: Type.Union(
    ["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((l) => Type.Literal(l)),
    { default: "info" },
  ),
});
export type Env = Static<typeof EnvSchema>;

export interface AppConfig {
  databaseUrl?: string;
  pgliteDir?: string;
  token?: string;
  /** The write token's name in the audit (YCSB_LAB_TOKEN_NAME, default "write-token"). */
  tokenName?: string;
  /** Further write tokens with their names (YCSB_LAB_TOKENS). */
  namedTokens?: { name: string; token: string }[];
  protectReads: boolean;
  /** Accepted for reads besides the write token (YCSB_LAB_READ_TOKEN). */
  readToken?: string;
  bodyLimit: number;
  /** Threads reading large ingest bodies (INGEST_READ_THREADS); default one per core but one, at most 4; 0: none. */
  ingestReadThreads?: number;
  rateLimit: { max: number; timeWindow: string };
  /** Fastify's trustProxy (TRUST_PROXY): false unless the service runs behind a proxy. */
  trustProxy?: boolean | number | string[];
  /** Answers of read routes kept until the next write (api/plugins/app/response-cache.ts). Default true. */
  responseCache?: boolean;
  /** Answers computed at once (api/plugins/app/compute-gate.ts); default by store (COMPUTE_SLOTS). */
  computeSlots?: number;
  /** Whole-request deadline (headers and body), ms; headers alone get a third of it. Default 60 s. */
  requestTimeoutMs?: number;
  s3: { endpoint?: string; region: string; poll?: S3Poll };
}

/** What the service imports by polling: one or more bucket/prefix pairs, every `seconds`. */
export interface S3Poll {
  bucket: string;
  prefix: string;
  seconds: number;
  /** Further buckets imported on the same schedule. */
  more?: Array<{ bucket: string; prefix: string }>;
}

export class ConfigError extends Error {}

/** Reads and checks the environment; every problem names its variable. */
export function loadEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const keys = Object.keys(EnvSchema.properties);
  const picked = Object.fromEntries(keys.filter((k) => env[k] !== undefined && env[k] !== "").map((k) => [k, env[k]]));
  const value = Value.Default(EnvSchema, Value.Convert(EnvSchema, picked));
  const errors = [...Value.Errors(EnvSchema, value)];
  if (errors.length) throw new ConfigError(errors.map((e) => `${e.path.slice(1)}: ${e.message}`).join("; "));
  return value as Env;
}

export function configFromEnv(env: Env): AppConfig {
  return {
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR }),
    ...(env.YCSB_LAB_TOKEN ? { token: env.YCSB_LAB_TOKEN } : {}),
    tokenName: env.YCSB_LAB_TOKEN_NAME,
    ...(env.YCSB_LAB_TOKENS
      ? {
          namedTokens: env.YCSB_LAB_TOKENS.split(",").map((p) => ({
            name: p.slice(0, p.indexOf("=")),
            token: p.slice(p.indexOf("=") + 1),
          })),
        }
      : {}),
    protectReads: env.YCSB_LAB_PROTECT_READS === "1",
    ...(env.YCSB_LAB_READ_TOKEN ? { readToken: env.YCSB_LAB_READ_TOKEN } : {}),
    bodyLimit: env.BODY_LIMIT_BYTES,
    ...(env.INGEST_READ_THREADS !== undefined ? { ingestReadThreads: env.INGEST_READ_THREADS } : {}),
    rateLimit: { max: env.RATE_LIMIT_MAX, timeWindow: env.RATE_LIMIT_WINDOW },
    trustProxy:
      env.TRUST_PROXY === "true"
        ? true
        : env.TRUST_PROXY === "false"
          ? false
          : /^\d+$/.test(env.TRUST_PROXY)
            ? Number(env.TRUST_PROXY)
            : env.TRUST_PROXY.split(","),
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    s3: {
      ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
      region: env.S3_REGION,
      ...pollFromEnv(env),
    },
  };
}

/** S3_POLL_BUCKET/S3_POLL_PREFIX and S3_POLL_BUCKETS as one poll over every bucket named. */
function pollFromEnv(env: Env): { poll?: S3Poll } {
  const listed = (env.S3_POLL_BUCKETS ?? "")
    .split(",")
    .filter(Boolean)
    .map((b) => {
      const slash = b.indexOf("/");
      return slash < 0 ? { bucket: b, prefix: "" } : { bucket: b.slice(0, slash), prefix: b.slice(slash + 1) };
    });
  const all = [...(env.S3_POLL_BUCKET ? [{ bucket: env.S3_POLL_BUCKET, prefix: env.S3_POLL_PREFIX }] : []), ...listed];
  if (all.length === 0) return {};
  const [first, ...more] = all;
  return { poll: { ...first!, seconds: env.S3_POLL_SECONDS, ...(more.length ? { more } : {}) } };
}
