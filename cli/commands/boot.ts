import { boot } from "../../runner/boot/boot.js";
import { type Command, parseCommandArgs, UsageError } from "../command.js";
import { packageVersion } from "./run.js";

const usage = `Usage: ycsb-lab boot --role data|client --index I --run s3://bucket/runs/<run-id>/ [--s3-endpoint URL]

What an instance of a run does after its OS packages, the one command its user-data starts (and
\`ycsb-lab rehearse\` runs on this machine):
  data node   mounts its volumes, applies the OS tuning, installs and configures the engine as engines/
              renders it, starts and supervises its processes; node 0 forms the cluster, prepares the
              schema and writes runs/<id>/cluster/ready.json
  client      reads plan.json and cluster.json from the run's prefix, waits for the cluster, runs its plan
              in lock-step with the other clients and uploads every result (a restart resumes)
Every stage goes to runs/<id>/status/<node|client>-<I>.json; a failure also uploads the log's tail
(\`ycsb-lab status\` shows both).

Exit codes: 0 done, 78 failed for good (do not restart), 1 failed (a restart resumes), 2 wrong usage.

Options:
  --role data|client    what this instance is
  --index I             its index among the run's data nodes or clients, 0-based
  --run URL             the run's prefix in the results bucket
  --s3-endpoint URL     S3 endpoint override (an emulator; AWS_ENDPOINT_URL works too)
`;

export const command: Command = {
  name: "boot",
  summary: "An instance's boot after its OS packages: a data node or a client of a run",
  usage,
  async run(args) {
    const { values } = parseCommandArgs({
      args,
      strict: true,
      options: {
        role: { type: "string" },
        index: { type: "string" },
        run: { type: "string" },
        "s3-endpoint": { type: "string" },
      },
    });
    const role = values.role;
    if (role === "dashboard")
      throw new UsageError(
        "--role dashboard: the dashboard service boots from the dashboard kit (ycsb-lab kit build --service)",
      );
    if (role !== "data" && role !== "client") throw new UsageError(`--role: "data" or "client", got "${role ?? ""}"`);
    const index = Number(values.index);
    if (values.index === undefined || !Number.isInteger(index) || index < 0)
      throw new UsageError(`--index: a whole number >= 0, got "${values.index ?? ""}"`);
    if (!values.run) throw new UsageError("--run is required (s3://bucket/runs/<run-id>/)");
    return boot({
      role,
      index,
      runUrl: values.run,
      ycsbLabVersion: await packageVersion(),
      ...(values["s3-endpoint"] ? { s3Endpoint: values["s3-endpoint"] } : {}),
    });
  },
};
