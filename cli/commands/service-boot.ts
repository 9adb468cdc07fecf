import { type Command, parseCommandArgs, UsageError } from "../command.js";
import { command as instanceBoot } from "./boot.js";
import { packageVersion } from "./run.js";

/** `ycsb-lab boot` of the dashboard kit and the checkout: `--role dashboard` serves; the other roles boot as ever. */
export const command: Command = {
  ...instanceBoot,
  usage: instanceBoot.usage.replace("--role data|client", "--role data|client|dashboard").replace(
    "Every stage goes to",
    `  dashboard   the team's results service (DashboardService): reads runs/<id>/service.json, its tokens and
              database credentials from Secrets Manager, migrates the database and serves, importing
              every results bucket it was given
Every stage goes to`,
  ),
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
    if (values.role !== "dashboard") return instanceBoot.run(args);
    const index = Number(values.index);
    if (values.index === undefined || !Number.isInteger(index) || index < 0)
      throw new UsageError(`--index: a whole number >= 0, got "${values.index ?? ""}"`);
    if (!values.run) throw new UsageError("--run is required (s3://bucket/runs/<service-id>/)");
    const { bootDashboard } = await import("../dashboard-boot.js");
    return bootDashboard({
      index,
      runUrl: values.run,
      ycsbLabVersion: await packageVersion(),
      ...(values["s3-endpoint"] ? { s3Endpoint: values["s3-endpoint"] } : {}),
    });
  },
};
