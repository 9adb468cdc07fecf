import { type InstanceStatus, STALE_HEARTBEAT_SECONDS, silenceSeconds } from "../../model/instance-status.js";
import { RunObjects } from "../../runner/boot/run-objects.js";
import { type Command, InputError, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab status --results s3://bucket/runs/<run-id>/ [--s3-endpoint URL] [--logs]

The fleet of a run at a glance: whether the run ended (complete, or early and why), every instance's last
reported stage (booting, installed, started, formed, ready, waiting, running k/n, done, failed), how long ago,
and what it said (a client waiting at a barrier says for whom); an instance whose heartbeat stopped is marked
SILENT; failed instances with the tail of their boot log. Reads runs/<id>/ with the caller's AWS credentials.

Options:
  --results URL         the run's prefix (the stack output resultsPrefix)
  --s3-endpoint URL     S3 endpoint override (an emulator)
  --logs                print the whole uploaded log tail of each failed instance (default: its last 15 lines)

Exit codes: 0 no instance failed, 3 some instance failed, 1 the run's prefix cannot be read, 2 wrong usage.
`;

const order = (name: string) => {
  const [kind, n] = name.split("-");
  return `${kind === "node" ? 0 : 1}-${String(n).padStart(6, "0")}`;
};

function ago(at: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : `${Math.round(s / 3600)}h`;
}

/** Pure: one line per instance, data nodes first, in index order. */
export function renderFleetStatus(
  statuses: InstanceStatus[],
  now: number,
  expected?: { nodes: number; clients: number },
): string[] {
  const byName = new Map(statuses.map((s) => [s.instance, s]));
  const names = new Set(byName.keys());
  for (let i = 0; i < (expected?.nodes ?? 0); i++) names.add(`node-${i}`);
  for (let i = 0; i < (expected?.clients ?? 0); i++) names.add(`client-${i}`);
  const rows = [...names]
    .sort((a, b) => order(a).localeCompare(order(b)))
    .map((name) => {
      const s = byName.get(name);
      if (!s) return [name, "no status", "", "not reported yet (still booting, or user-data failed before the kit)"];
      const stage = s.stage === "running" && s.phase ? `running ${s.phase.position}/${s.phase.of}` : s.stage;
      const detail =
        s.stage === "running" && s.phase ? `${s.phase.name}${s.detail ? ` (${s.detail})` : ""}` : (s.detail ?? "");
      // A working instance keeps a heartbeat: one silent for long is gone (lost, killed, powered off) or hung.
      const silent =
        !["done", "failed"].includes(s.stage) && silenceSeconds(s, new Date(now)) > STALE_HEARTBEAT_SECONDS;
      return [
        name,
        stage,
        ago(s.at, now),
        silent
          ? `SILENT for ${Math.round(silenceSeconds(s, new Date(now)))} s (no heartbeat): its machine may be gone; ${detail}`
          : detail,
      ];
    });
  const widths = [0, 1, 2].map((i) =>
    Math.max(...rows.map((r) => r[i]!.length), ["instance", "stage", "since"][i]!.length),
  );
  const line = (r: string[]) =>
    `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]!.padStart(widths[2]!)}  ${r[3]}`.trimEnd();
  return [line(["instance", "stage", "since", "detail"]), ...rows.map(line)];
}

export const command: Command = {
  name: "status",
  summary: "Show every instance of a run: its boot stage, and the log tail of a failed one",
  usage,
  async run(args) {
    const { values } = parseCommandArgs({
      args,
      strict: true,
      options: { results: { type: "string" }, "s3-endpoint": { type: "string" }, logs: { type: "boolean" } },
    });
    if (!values.results) throw new UsageError("--results is required (s3://bucket/runs/<run-id>/)");
    let objects: RunObjects;
    try {
      objects = await RunObjects.open(
        values.results,
        undefined,
        values["s3-endpoint"] ? { endpoint: values["s3-endpoint"] } : {},
      );
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    let statuses: Map<string, InstanceStatus>;
    let expected: { nodes: number; clients: number } | undefined;
    try {
      statuses = await objects.statuses();
      expected = await objects
        .cluster()
        .then((c) => ({ nodes: c.nodes.length, clients: c.clients.length }))
        .catch(() => undefined);
    } catch (err) {
      throw new InputError(`cannot read ${values.results}: ${(err as Error).message}`);
    }
    const end = await objects.runEnd().catch(() => undefined);
    const ended = end
      ? end.complete
        ? `: complete (${end.at})`
        : `: ended early at ${end.at} by ${end.by}: ${end.reason ?? "no reason given"}`
      : "";
    process.stdout.write(
      `run ${objects.runId}${ended}\n${renderFleetStatus([...statuses.values()], Date.now(), expected).join("\n")}\n`,
    );
    const failed = [...statuses.values()].filter((s) => s.stage === "failed");
    for (const s of failed) {
      const tail = s.logTail ? await objects.logTail(s.instance) : undefined;
      if (!tail) continue;
      const lines = tail.trimEnd().split("\n");
      process.stdout.write(
        `\n--- ${s.instance}: last ${values.logs ? lines.length : Math.min(15, lines.length)} line(s) of its log ---\n${(values.logs ? lines : lines.slice(-15)).join("\n")}\n`,
      );
    }
    return failed.length > 0 ? 3 : 0;
  },
};
