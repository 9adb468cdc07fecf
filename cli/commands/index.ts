import type { CommandTable } from "../dispatch.js";
import { SERVICE_COMMANDS } from "./service.js";

/**
 * Every subcommand, loaded lazily so `ycsb-lab parse` does not load Pulumi, Fastify or Prisma.
 * Add a command: one file in cli/commands exporting `command`, and one line here (or in instance.ts when an
 * instance runs it).
 */
export const COMMANDS: CommandTable = {
  ...SERVICE_COMMANDS,
  rehearse: {
    summary: "Run a stack's instances as their user-data boots them, on this machine",
    load: async () => (await import("./rehearse.js")).command,
  },
  kit: {
    summary: "Build the kit a stack ships to its instances (the CLI bundle and the Java pieces)",
    load: async () => (await import("./kit.js")).command,
  },
  local: {
    summary: "Start, inspect and stop real database servers on this machine",
    load: async () => (await import("./local.js")).command,
  },
  ycsb: {
    summary: "Run YCSB with our binding against a running local engine",
    load: async () => (await import("./ycsb.js")).command,
  },
  serve: {
    summary: "Serve the results API (Postgres or embedded PGlite) on 127.0.0.1:8080",
    load: async () => (await import("./serve.js")).command,
  },
  start: {
    summary: "The dashboard plus a local benchmark, ingested as it finishes (npm start)",
    load: async () => (await import("./start.js")).command,
  },
  ingest: {
    summary: "Store result documents, an S3 results prefix or the seeds' reference data",
    load: async () => (await import("./ingest.js")).command,
  },
};
