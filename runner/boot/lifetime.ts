import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ClusterDescription } from "../../model/cluster-description.js";
import type { BootEnvironment } from "./environment.js";

/**
 * When an instance terminates itself (the stack's cost brake): the end of the expiry day, UTC, or `maxHours` after
 * it first booted, whichever comes first. Pure.
 */
export function terminationTime(lifetime: ClusterDescription["lifetime"], firstBoot: Date): Date {
  const endOfExpiry = new Date(`${lifetime.expiry}T23:59:59Z`);
  if (lifetime.maxHours === undefined) return endOfExpiry;
  const byHours = new Date(firstBoot.getTime() + lifetime.maxHours * 3_600_000);
  return byHours < endOfExpiry ? byHours : endOfExpiry;
}

/** systemd's calendar form of an instant, in UTC ("2026-12-31 23:59:59 UTC"). */
export function calendarUtc(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * Schedules the shutdown (the instance's shutdown behaviour is terminate) with a systemd timer, once per instance:
 * the first boot's time is kept, so a restart never pushes the deadline out. Past the deadline it shuts down now.
 * A rehearsal only says when it would. Returns one line for the status.
 */
export function scheduleTermination(cluster: ClusterDescription, env: BootEnvironment, now: Date = new Date()): string {
  const file = join(env.home, "first-boot");
  const firstBoot = existsSync(file) ? new Date(readFileSync(file, "utf8").trim()) : now;
  if (!existsSync(file)) writeFileSync(file, firstBoot.toISOString());
  const at = terminationTime(cluster.lifetime, firstBoot);
  const when = `${at.toISOString()} (expiry ${cluster.lifetime.expiry}${cluster.lifetime.maxHours !== undefined ? `, at most ${cluster.lifetime.maxHours} h` : ""})`;
  if (env.rehearsal) return `would terminate itself at ${when}; a rehearsal schedules nothing`;
  if (at <= now) {
    spawnSync("shutdown", ["-h", "+1", "ycsb-lab: the run's lifetime is over"]);
    return `the run's lifetime ended at ${at.toISOString()}: shutting down (terminate) in a minute`;
  }
  spawnSync("systemctl", ["stop", "ycsb-lab-expiry.timer"]);
  const r = spawnSync("systemd-run", ["--unit=ycsb-lab-expiry", `--on-calendar=${calendarUtc(at)}`, "--timer-property=AccuracySec=1min", "/usr/sbin/shutdown", "-h", "now"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`could not schedule the termination at ${at.toISOString()}: ${(r.stderr || r.error?.message || "").trim()}`);
  return `terminates itself at ${when}`;
}
