import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../runner/boot/processes.js";
import { REPO_ROOT } from "../runner/java-artifacts.js";
import type { Credentials } from "./emulator.js";

export interface ResultsService {
  url: string;
  token: string;
  stop(): Promise<void>;
  /** GET a path of the API (e.g. /api/v1/runs/<id>), parsed; undefined on 404. */
  get<T>(path: string): Promise<T | undefined>;
}

/**
 * How long `serve` may take to answer /health: an embedded database's first start with its migrations and the
 * seeds' tables. Two minutes was not enough on a 2-core machine at a load average of 20.
 */
const SERVICE_START_MS = 300_000;

/**
 * The results service as a team runs it: `ycsb-lab serve` in its own process, importing from the run's bucket by
 * polling (S3_POLL_*), with read-only credentials on the bucket. Its database is the rehearsal's own embedded one
 * unless `databaseUrl` names a PostgreSQL.
 */
export async function startResultsService(o: {
  dir: string;
  endpoint: string;
  region: string;
  bucket: string;
  credentials: Credentials;
  databaseUrl?: string;
  port?: number;
  log?: (l: string) => void;
}): Promise<ResultsService> {
  const port = o.port ?? (await freePort());
  const token = randomBytes(24).toString("base64url");
  const out = openSync(join(o.dir, "results-service.log"), "a");
  let child: ChildProcess;
  try {
    child = spawn(
      process.execPath,
      [join(REPO_ROOT, "bin", "ycsb-lab.js"), "serve", "--host", "127.0.0.1", "--port", String(port)],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          ...(o.databaseUrl
            ? { DATABASE_URL: o.databaseUrl }
            : { PGLITE_DIR: join(o.dir, "pglite"), DATABASE_URL: "" }),
          YCSB_LAB_TOKEN: token,
          S3_ENDPOINT: o.endpoint,
          S3_REGION: o.region,
          S3_POLL_BUCKET: o.bucket,
          S3_POLL_PREFIX: "",
          S3_POLL_SECONDS: "5",
          AWS_ACCESS_KEY_ID: o.credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: o.credentials.secretAccessKey,
          AWS_EC2_METADATA_DISABLED: "true",
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", out, out],
      },
    );
  } finally {
    closeSync(out);
  }
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + SERVICE_START_MS;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `the results service exited with code ${child.exitCode}; see ${join(o.dir, "results-service.log")}`,
      );
    const up = await fetch(`${url}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    if (Date.now() > deadline) {
      // A service that never answered is still a process of ours: it must not outlive the rehearsal that gave up.
      child.kill("SIGKILL");
      throw new Error(
        `the results service did not answer on ${url} in ${SERVICE_START_MS / 1000} s; see ${join(o.dir, "results-service.log")}`,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    token,
    async get<T>(path: string) {
      const r = await fetch(`${url}${path}`);
      if (r.status === 404) return undefined;
      if (!r.ok) throw new Error(`GET ${path}: HTTP ${r.status}`);
      return (await r.json()) as T;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
