import type { Command } from "../command.js";

/**
 * Every subcommand, loaded lazily so `ycsb-lab parse` does not load Pulumi, Fastify or Prisma.
 * Add a command: one file in cli/commands exporting `command`, and one line here.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  plan: { summary: "Turn a scenario into the ordered, lock-step plan of YCSB phases", load: async () => (await import("./plan.js")).command },
  run: { summary: "Run a plan's phases as one client, in lock-step with the others", load: async () => (await import("./run.js")).command },
  merge: { summary: "Merge YCSB HDR interval logs across clients into percentiles", load: async () => (await import("./merge.js")).command },
  parse: { summary: "Parse one YCSB client's stdout/stderr into the result document's JSON", load: async () => (await import("./parse.js")).command },
  local: { summary: "Start, inspect and stop real database servers on this machine", load: async () => (await import("./local.js")).command },
  ycsb: { summary: "Run YCSB with our binding against a running local engine", load: async () => (await import("./ycsb.js")).command },
  serve: { summary: "Serve the results API (Postgres or embedded PGlite) on 127.0.0.1:8080", load: async () => (await import("./serve.js")).command },
  start: { summary: "The dashboard plus a local benchmark, ingested as it finishes (npm start)", load: async () => (await import("./start.js")).command },
  ingest: { summary: "Store result documents, an S3 results prefix or the seeds' reference data", load: async () => (await import("./ingest.js")).command },
};
