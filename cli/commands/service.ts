import type { CommandTable } from "../dispatch.js";
import { INSTANCE_COMMANDS } from "./instance.js";

/**
 * What the dashboard service runs from its kit (kit/build.ts buildServiceKit bundles cli/service-main.ts): the
 * instance commands, a boot that also knows the dashboard role, the API, and moving data in and out.
 */
export const SERVICE_COMMANDS: CommandTable = {
  ...INSTANCE_COMMANDS,
  boot: {
    summary: "An instance's boot after its OS packages: a data node, a client or the dashboard service",
    load: async () => (await import("./service-boot.js")).command,
  },
  serve: {
    summary: "Serve the results API (Postgres or embedded PGlite) on 127.0.0.1:8080",
    load: async () => (await import("./serve.js")).command,
  },
  export: {
    summary: "Write every stored run (measured and published) as JSON lines",
    load: async () => (await import("./export.js")).command,
  },
  import: {
    summary: "Load runs written by `ycsb-lab export` into this store (idempotent)",
    load: async () => (await import("./import.js")).command,
  },
};
