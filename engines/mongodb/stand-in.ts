/**
 * FerretDB, the MongoDB stand-in where no mongod can be installed (DESIGN.md "What runs for real"): the MongoDB wire
 * protocol over SQLite, one server, no replica sets and no sharding. Built by scripts/setup-ferretdb.sh; run by
 * a rehearsal's data node and by `ycsb-lab local up` alike, through engines/mongodb/runtime.ts mongodbStandIn.
 */

/** The FerretDB release scripts/setup-ferretdb.sh builds; v1.x is the last line with the SQLite handler. */
export const FERRETDB_VERSION = "v1.24.0";

/** Shown wherever a MongoDB number measured on the stand-in appears (status output, result run.standIn, docs). */
export const MONGODB_STAND_IN = `FerretDB ${FERRETDB_VERSION} (SQLite backend) standing in for MongoDB`;

/** FerretDB's command line: SQLite files under `dataDir`, on host:port, no telemetry, no debug HTTP listener. */
export function ferretdbArgs(dataDir: string, port: number, host = "127.0.0.1"): string[] {
  return [
    "--handler=sqlite",
    `--sqlite-url=file:${dataDir}/`,
    `--listen-addr=${host}:${port}`,
    "--debug-addr=-",
    // Telemetry would call out to FerretDB's beacon; this machine talks to loopback only.
    "--telemetry=disable",
    `--state-dir=${dataDir}`,
    "--log-level=warn",
  ];
}
