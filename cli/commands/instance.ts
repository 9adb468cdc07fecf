import type { CommandTable } from "../dispatch.js";

/**
 * What an instance runs from its kit (kit/build.ts bundles cli/instance-main.ts): no API, no database client, no
 * Pulumi is reachable from here, so none of it is in the kit.
 */
export const INSTANCE_COMMANDS: CommandTable = {
  plan: {
    summary: "Turn a scenario into the ordered, lock-step plan of YCSB phases",
    load: async () => (await import("./plan.js")).command,
  },
  run: {
    summary: "Run a plan's phases as one client, in lock-step with the others",
    load: async () => (await import("./run.js")).command,
  },
  boot: {
    summary: "An instance's boot after its OS packages: a data node or a client of a run",
    load: async () => (await import("./boot.js")).command,
  },
  status: {
    summary: "Show every instance of a run: its boot stage, and the log tail of a failed one",
    load: async () => (await import("./status.js")).command,
  },
  merge: {
    summary: "Merge YCSB HDR interval logs across clients into percentiles",
    load: async () => (await import("./merge.js")).command,
  },
  parse: {
    summary: "Parse one YCSB client's stdout/stderr into the result document's JSON",
    load: async () => (await import("./parse.js")).command,
  },
};
