import { join } from "node:path";
import { type InstanceRole, instanceName } from "../../model/instance-status.js";
import { currentKit } from "../kit-layout.js";
import { isPermanent } from "../retry.js";
import { bootClient } from "./client-node.js";
import { bootDataNode } from "./data-node.js";
import { bootEnvironment, EXIT_PERMANENT, rehearsalNotes } from "./environment.js";
import { Reporter } from "./reporter.js";
import { RunObjects } from "./run-objects.js";
import { type SpotNotice, watchSpotInterruption } from "./spot-watch.js";

export interface BootOptions {
  /** A run's data node or client (the dashboard service boots through cli/dashboard-boot.ts). */
  role: Exclude<InstanceRole, "dashboard">;
  index: number;
  /** s3://bucket[/prefix]/runs/<runId>/ */
  runUrl: string;
  ycsbLabVersion: string;
  s3Endpoint?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * `ycsb-lab boot`: everything an instance does after its OS packages (DESIGN.md "One boot path"), the same command
 * on EC2 and in `ycsb-lab rehearse`. Exit codes: 0 done; 78 failed for good (systemd's RestartPreventExitStatus:
 * a restart cannot help, and a looping fleet costs money); 1 anything else (systemd restarts it and the boot
 * resumes where it was).
 */
export async function boot(o: BootOptions): Promise<number> {
  const env = bootEnvironment(o.env ?? process.env);
  const objects = await RunObjects.open(o.runUrl, env, { ...(o.s3Endpoint ? { endpoint: o.s3Endpoint } : {}) });
  const kit = currentKit();
  const notes = rehearsalNotes(env);
  const reporter = new Reporter(
    objects,
    o.role,
    o.index,
    join(env.home, "logs", `${instanceName(o.role, o.index)}.log`),
    {
      ...(notes.length ? { rehearsal: notes } : {}),
    },
  );
  for (const note of notes) reporter.log(note);
  await reporter.stage(
    "booting",
    `ycsb-lab ${o.ycsbLabVersion}${kit ? ` (kit ${kit.root})` : " (checkout)"}, run ${objects.runId}`,
  );
  const heartbeat = reporter.heartbeat();
  const spot = watchSpotInterruption((n) => onSpotNotice(n, o, objects, reporter), {
    env: o.env ?? process.env,
    log: (l) => reporter.log(l),
  });
  try {
    if (o.role === "data") return await bootDataNode({ env, objects, reporter, index: o.index });
    return await bootClient({ env, objects, reporter, index: o.index, ycsbLabVersion: o.ycsbLabVersion });
  } catch (err) {
    const message = (err as Error).message;
    await reporter.failed(message);
    // A client that gives up for good ends the run for everyone (the data nodes stop serving, the fleet powers off).
    if (o.role === "client" && isPermanent(err))
      await objects
        .endRun({ reason: `${reporter.instance}: ${message}`, by: reporter.instance })
        .catch(() => undefined);
    return isPermanent(err) ? EXIT_PERMANENT : 1;
  } finally {
    heartbeat.stop();
    spot.stop();
  }
}

/**
 * EC2 reclaims this Spot instance in two minutes: a client ends the run at once (every other client stops at its
 * next poll instead of waiting out a barrier), a data node reports itself failed (the clients then end the run).
 */
async function onSpotNotice(n: SpotNotice, o: BootOptions, objects: RunObjects, reporter: Reporter): Promise<void> {
  const reason = `${reporter.instance}: Spot interruption notice (${n.action} at ${n.time})`;
  reporter.log(reason);
  if (o.role === "client")
    await objects
      .endRun({ reason, by: reporter.instance })
      .catch((err: Error) => reporter.log(`run end not written: ${err.message}`));
  else await reporter.failed(reason);
}
