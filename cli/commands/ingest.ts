import { readFile } from "node:fs/promises";
import { type Command, InputError, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab ingest [--s3 BUCKET [--prefix PREFIX] [--run RUN_ID]] [--reference] [FILE.json ...]

Store results in the database (DATABASE_URL, or the embedded PGlite in PGLITE_DIR, default .local/pglite), the same
way POST /api/v1/results and /api/v1/ingest/s3 do: validated, one transaction, idempotent. When a running
\`ycsb-lab serve\` or \`start\` owns the PGlite directory, everything goes through its API (with YCSB_LAB_TOKEN, or the
token in YCSB_LAB_TOKEN_FILE): a PGlite directory has one owner, and two processes writing it lose data.

  FILE.json        result documents (one document or an array per file)
  --s3 BUCKET      import every new result object of the runs under s3://BUCKET/PREFIX/runs/ (S3_ENDPOINT for moto)
  --prefix PREFIX  the results prefix in the bucket
  --run RUN_ID     only this run
  --reference      load the seeds' published tables (prisma/reference)

Exit codes: 0 stored (or already stored), 1 invalid or unreadable input or refused by the server, 2 wrong usage.`;

/** A batch per request: the API's limit (api/routes/api/results MAX_BATCH). */
const BATCH = 1000;

export const command: Command = {
  name: "ingest",
  summary: "Store result documents, an S3 results prefix or the seeds' reference data in the database",
  usage,
  async run(args) {
    const parsed = parseCommandArgs({
      args,
      allowPositionals: true,
      options: {
        s3: { type: "string" },
        prefix: { type: "string" },
        run: { type: "string" },
        reference: { type: "boolean" },
        help: { type: "boolean" },
      },
    });
    const { values, positionals } = parsed;
    if (values.help) {
      console.log(usage);
      return 0;
    }
    if (!values.s3 && !values.reference && positionals.length === 0)
      throw new UsageError("nothing to ingest: give FILE.json, --s3 BUCKET or --reference");
    if ((values.prefix || values.run) && !values.s3) throw new UsageError("--prefix and --run need --s3");

    const { checkResultsBody } = await import("../../api/ingest-body/check.js");
    const docs: unknown[] = [];
    for (const file of positionals) {
      let body: unknown;
      try {
        body = JSON.parse(await readFile(file, "utf8"));
      } catch (e) {
        throw new InputError(`${file}: ${(e as Error).message}`);
      }
      const errors = checkResultsBody(body);
      if (errors.length) throw new InputError(`${file}: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`);
      docs.push(...(Array.isArray(body) ? body : [body]));
    }
    const s3 = values.s3
      ? {
          bucket: values.s3,
          ...(values.prefix ? { prefix: values.prefix } : {}),
          ...(values.run ? { runId: values.run } : {}),
        }
      : undefined;

    const { configFromEnv, loadEnv } = await import("../../api/config.js");
    const env = loadEnv();
    const config = configFromEnv(env);
    if (config.pgliteDir) {
      const { dataDirOwner } = await import("../../api/db/data-dir-lock.js");
      const owner = dataDirOwner(config.pgliteDir);
      if (owner) {
        if (!owner.url) {
          // A server starting up listens in a moment; another ingest (or export, import) serves no API to write through.
          const serving = /\b(serve|start)\b/.test(owner.command);
          throw new InputError(
            serving
              ? `${config.pgliteDir} is owned by ${owner.command} (pid ${owner.pid}), which does not listen yet: try again in a moment`
              : `${config.pgliteDir} is being written by ${owner.command} (pid ${owner.pid} on ${owner.host}), which serves no API to write through: run this again once it has finished`,
          );
        }
        const { loadOrCreateToken } = await import("../../api/token-file.js");
        const token = config.token ?? (await loadOrCreateToken(env.YCSB_LAB_TOKEN_FILE)).token;
        return throughServer(owner.url, token, docs, s3, values.reference === true);
      }
    }

    const { openDatabase } = await import("../../api/db/open.js");
    const db = await openDatabase({
      ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
      ...(config.pgliteDir ? { pgliteDir: config.pgliteDir } : {}),
      command: "ingest",
    });
    try {
      if (docs.length) {
        const { ingestDocuments } = await import("../../api/store/ingest.js");
        const out = await ingestDocuments(db.prisma, docs as never);
        const count = (s: string) => out.filter((o) => o.status === s).length;
        console.log(
          JSON.stringify({
            created: count("created"),
            duplicates: count("duplicate"),
            conflicts: out.filter((o) => o.status === "conflict"),
          }),
        );
      }
      if (s3) {
        const { S3Client } = await import("@aws-sdk/client-s3");
        const { importFromS3 } = await import("../../api/store/s3-import.js");
        const client = new S3Client({
          region: config.s3.region,
          ...(config.s3.endpoint ? { endpoint: config.s3.endpoint, forcePathStyle: true } : {}),
        });
        const report = await importFromS3(db.prisma, client, s3, { maxObjectBytes: config.bodyLimit });
        client.destroy();
        console.log(JSON.stringify(report));
        if (report.invalid.length) return 1;
      }
      if (values.reference) {
        const { loadReferenceData } = await import("../../api/store/reference-data.js");
        console.log(JSON.stringify(await loadReferenceData(db.prisma)));
      }
      return 0;
    } finally {
      await db.close();
    }
  },
};

/** The same work through the API of the server that owns the data directory; its answers printed as they come. */
async function throughServer(
  base: string,
  token: string,
  docs: unknown[],
  s3: object | undefined,
  reference: boolean,
): Promise<number> {
  console.error(`ycsb-lab ingest: the data directory is served at ${base}: writing through its API`);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new InputError(`POST ${path}: ${res.status} ${text.slice(0, 2000)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  if (docs.length) {
    const total = { created: 0, duplicates: 0, conflicts: [] as unknown[] };
    for (let i = 0; i < docs.length; i += BATCH) {
      const out = (await post("/results", docs.slice(i, i + BATCH))) as {
        created: number;
        duplicates: number;
        results: { status: string }[];
      };
      total.created += out.created;
      total.duplicates += out.duplicates;
      total.conflicts.push(...out.results.filter((r) => r.status === "conflict"));
    }
    console.log(JSON.stringify({ ...total, via: base }));
  }
  if (s3) {
    const report = await post("/ingest/s3", s3);
    console.log(JSON.stringify({ ...report, via: base }));
    if ((report.invalid as unknown[]).length) return 1;
  }
  if (reference) console.log(JSON.stringify({ ...(await post("/reference/load", {})), via: base }));
  return 0;
}
