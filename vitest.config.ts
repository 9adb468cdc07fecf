import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * Integration files start something: a server (Postgres, PGlite behind the API, moto, an HTTP stub), a JVM (YCSB,
 * Cassandra, HBase, CouchbaseMock), a browser, or the CLI as a child process. They run one at a time, after the
 * unit files, so two of them never fight over the 2 cores or a port. Every other file is a unit file: pure, run in
 * parallel; test/support/unit-guard.ts fails a unit file that listens on a socket or spawns a process, so a file
 * that belongs in this list says so the first time it runs.
 */
export const INTEGRATION_FILES = [
  "test/api/api-*.test.ts",
  "test/runner/bindings/bindings-java.test.ts",
  "test/runner/boot/boot-access.test.ts",
  "test/runner/boot/boot-couchbase.test.ts",
  "test/runner/boot/boot-hbase.test.ts",
  "test/runner/boot/boot-install.test.ts",
  "test/runner/boot/boot-mongodb.test.ts",
  "test/engines/cassandra/cassandra-cluster.test.ts",
  "test/engines/cassandra/cassandra-local.test.ts",
  "test/engines/cassandra/cassandra-study.test.ts",
  "test/cli/cli-*.test.ts",
  "test/kit/consumer-example.test.ts",
  "test/engines/couchbase/couchbase-mock.test.ts",
  "test/prisma/db-scripts.test.ts",
  "test/engines/hbase/hbase-local.test.ts",
  "test/tools/hdr-java/hdr-cli.test.ts",
  "test/tools/hdr-java/hdr-java.test.ts",
  "test/tools/hdr-java/hdr-merge.test.ts",
  "test/infra/infra-package.test.ts",
  "test/engines/mongodb/mongodb-ferretdb.test.ts",
  "test/kit/packages.test.ts",
  "test/runner/ycsb-output/parser-cli.test.ts",
  "test/rehearse/rehearse-*.test.ts",
  "test/runner/runner-capacity.test.ts",
  "test/runner/runner-cassandra.test.ts",
  "test/runner/runner-ingest.test.ts",
  "test/runner/runner-insert-keys.test.ts",
  "test/runner/runner-lockstep.test.ts",
  "test/runner/runner-resets.test.ts",
  "test/runner/runner-roll-call.test.ts",
  "test/runner/runner-step-up.test.ts",
  "test/runner/boot/supervisor-detached.test.ts",
  "test/web/web-capacity-view.test.ts",
  "test/web/web-dashboard.test.ts",
  "test/web/web-decide.test.ts",
  "test/web/web-first-hour.test.ts",
  "test/web/web-host-name.test.ts",
  "test/web/web-run-cost-view.test.ts",
  "test/web/web-serve.test.ts",
  "test/runner/ycsb-limits.test.ts",
];

/**
 * The integration files split into two lanes that `npm test` runs side by side (scripts/test-lanes.ts), each one
 * file at a time, so the suite's half-idle minutes (JVMs starting, machines booting) overlap. The machines lane
 * holds the OS-container rehearsals and every engine whose servers may bind all addresses (HBase's ZooKeeper and
 * info ports, CouchbaseMock, FerretDB): the rehearsal's containers share this machine's network, so those never
 * run beside one. The services lane holds the rest: API, CLI, browser, packages, and Cassandra on its own
 * loopback addresses (listen and native addresses are set per node, no JMX port is opened).
 */
export const MACHINES_LANE = [
  "test/rehearse/rehearse-*.test.ts",
  "test/runner/boot/boot-couchbase.test.ts",
  "test/runner/boot/boot-hbase.test.ts",
  "test/runner/boot/boot-mongodb.test.ts",
  "test/engines/couchbase/couchbase-mock.test.ts",
  "test/engines/hbase/hbase-local.test.ts",
  "test/engines/mongodb/mongodb-ferretdb.test.ts",
];

/** YCSB_LAB_LANE=machines|services narrows the integration project to one lane; unset, it runs every file. */
function laneOf(lane: string | undefined): { include: string[]; exclude: string[] } {
  if (lane === undefined || lane === "") return { include: INTEGRATION_FILES, exclude: [] };
  if (lane === "machines") return { include: MACHINES_LANE, exclude: [] };
  if (lane === "services") return { include: INTEGRATION_FILES, exclude: MACHINES_LANE };
  throw new Error(`YCSB_LAB_LANE=${lane}: expected machines or services`);
}
const LANE = laneOf(process.env.YCSB_LAB_LANE);

/** As the CLI's entry points do (cli/dispatch.ts): Node 20 is what the machines run, the SDK's warning is about 2027. */
const QUIET_ENV = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };

export default defineConfig({
  test: {
    // vitest's own report, then one plain "tests: N passed, N failed" line (test/support/summary-reporter.ts).
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          env: QUIET_ENV,
          include: ["test/**/*.test.ts"],
          exclude: INTEGRATION_FILES,
          setupFiles: ["./test/support/unit-guard.ts"],
          testTimeout: 30_000,
          // vitest's default is one worker less than the cores (1 on 2 cores); unit files are CPU-bound, so use them all.
          maxWorkers: availableParallelism(),
          // Files share a worker's module cache: @pulumi/pulumi and @pulumi/aws load once per worker, not once per file
          // (about half the unit lane's CPU before, docs/benchmarks.md). setupFiles still run before every file.
          isolate: false,
          // Unit files first; integration files only start once they are done.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "integration",
          env: QUIET_ENV,
          include: LANE.include,
          exclude: LANE.exclude,
          // A guard against a hang, not a speed check: two lanes side by side on 2 cores stretch a 40 s file past a minute.
          testTimeout: 180_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          // Stops the test PostgreSQL, drops every test database and fails the run on a process left behind.
          globalSetup: ["./test/support/integration-teardown.ts"],
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
