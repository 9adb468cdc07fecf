import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { InputError, UsageError, type Command } from "../command.js";

const usage = `Usage: ycsb-lab ingest [--s3 BUCKET [--prefix PREFIX] [--run RUN_ID]] [--reference] [FILE.json ...]

Store results straight into the database (DATABASE_URL, or the embedded PGlite in .local/pglite), the same way
POST /api/v1/results and /api/v1/ingest/s3 do: validated, one transaction, idempotent.

  FILE.json        result documents (one document or an array per file)
  --s3 BUCKET      import every new result object of the runs under s3://BUCKET/PREFIX/runs/ (S3_ENDPOINT for moto)
  --prefix PREFIX  the results prefix in the bucket
  --run RUN_ID     only this run
  --reference      load the seeds' published tables (prisma/reference)

Exit codes: 0 stored (or already stored), 1 invalid or unreadable input, 2 wrong usage.`;

export const command: Command = {
  name: "ingest",
  summary: "Store result documents, an S3 results prefix or the seeds' reference data in the database",
  usage,
  async run(args) {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        allowPositionals: true,
        options: { s3: { type: "string" }, prefix: { type: "string" }, run: { type: "string" }, reference: { type: "boolean" }, help: { type: "boolean" } },
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      console.log(usage);
      return 0;
    }
    if (!values.s3 && !values.reference && positionals.length === 0) throw new UsageError("nothing to ingest: give FILE.json, --s3 BUCKET or --reference");
    if ((values.prefix || values.run) && !values.s3) throw new UsageError("--prefix and --run need --s3");

    const { checkResultsBody } = await import("../../api/routes/api/results/index.js");
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

    const { configFromEnv, loadEnv } = await import("../../api/config.js");
    const { openDatabase } = await import("../../api/db/open.js");
    const config = configFromEnv(loadEnv());
    const db = await openDatabase({ ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}), ...(config.pgliteDir ? { pgliteDir: config.pgliteDir } : {}) });
    try {
      if (docs.length) {
        const { ingestDocuments } = await import("../../api/store/ingest.js");
        const out = await ingestDocuments(db.prisma, docs as never);
        const count = (s: string) => out.filter((o) => o.status === s).length;
        console.log(JSON.stringify({ created: count("created"), duplicates: count("duplicate"), conflicts: out.filter((o) => o.status === "conflict") }));
      }
      if (values.s3) {
        const { S3Client } = await import("@aws-sdk/client-s3");
        const { importFromS3 } = await import("../../api/store/s3-import.js");
        const s3 = new S3Client({ region: config.s3.region, ...(config.s3.endpoint ? { endpoint: config.s3.endpoint, forcePathStyle: true } : {}) });
        const report = await importFromS3(db.prisma, s3, { bucket: values.s3, ...(values.prefix ? { prefix: values.prefix } : {}), ...(values.run ? { runId: values.run } : {}) });
        s3.destroy();
        console.log(JSON.stringify(report));
        if (report.invalid.length) return 1;
      }
      if (values.reference) {
        const { loadReferenceData } = await import("../../prisma/reference/load.js");
        console.log(JSON.stringify(await loadReferenceData(db.prisma)));
      }
      return 0;
    } finally {
      await db.close();
    }
  },
};
