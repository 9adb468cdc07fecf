import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { osTuning, tuningSteps } from "../../engines/os-tuning.js";
import type { ClusterDescription } from "../../model/cluster-description.js";
import type { Engine } from "../../model/engine.js";
import type { BootEnvironment } from "./environment.js";

/**
 * What a data node does to its machine before the engine: mount the data (and log) volume and apply the OS tuning
 * of seed 002 appendix C (engines/os-tuning.ts). Runs on instances and in OS-container rehearsals (loop devices
 * standing for the volumes); a boot run as a process on a development machine (env.fsRoot) leaves the machine alone.
 */

function run(cmd: string, args: string[]): string {
  const out = spawnSync(cmd, args, { encoding: "utf8" });
  if (out.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")}: ${(out.stderr || out.error?.message || `exit ${out.status}`).trim()}`);
  return out.stdout;
}

/**
 * The attachment name an EBS volume reports on Nitro: bytes 3072..3104 of the NVMe controller's identify data (the
 * vendor-specific area) hold the block device name it was attached under, e.g. "sdf" or "/dev/sdf" (AWS docs,
 * "Amazon EBS and NVMe", "Identify the EBS device"). Pure.
 */
export function attachmentName(identifyController: Buffer): string {
  return identifyController
    .subarray(3072, 3104)
    .toString("latin1")
    .replace(/[\0 ]/g, "")
    .replace(/^\/dev\//, "");
}

/** The NVMe block device an EBS volume attached as `name` (e.g. "sdf") appears as. */
export function ebsDevice(name: string, env?: BootEnvironment): string {
  const given = env?.blockDevices.get(name);
  if (given) return given;
  for (const d of readdirSync("/dev").filter((f) => /^nvme\d+n1$/.test(f))) {
    const raw = spawnSync("nvme", ["id-ctrl", "--raw-binary", `/dev/${d}`]);
    if (raw.status === 0 && attachmentName(raw.stdout) === name) return `/dev/${d}`;
  }
  throw new Error(`no NVMe device reports the EBS attachment "${name}"`);
}

/** Devices whose model lsblk reports as the instance store ("Amazon EC2 NVMe Instance Storage"). Pure. */
export function instanceStoreFromLsblk(lsblk: string): string[] {
  return lsblk
    .split("\n")
    .filter((l) => /Instance Storage/.test(l))
    .map((l) => l.trim().split(/\s+/)[0]!);
}

function instanceStoreDevices(env?: BootEnvironment): string[] {
  return env?.instanceStore ?? instanceStoreFromLsblk(run("lsblk", ["-dpno", "NAME,MODEL"]));
}

/** mdadm's command striping several local disks into one (seed 001's m1.xlarge had four). Pure. */
export function raidCommand(disks: string[]): string[] {
  return ["--create", "/dev/md0", "--run", "--level=0", `--raid-devices=${disks.length}`, ...disks];
}

/** The fstab line of a data volume: XFS (MongoDB's production notes; seed 002 used ext4 or XFS), noatime (seed 002
 * appendix C 6), nofail so a lost volume never stops the machine from booting. Pure. */
export function fstabLine(uuid: string, dir: string): string {
  return `UUID=${uuid} ${dir} xfs defaults,noatime,nofail 0 2\n`;
}

function mountAt(device: string, dir: string): void {
  if (spawnSync("blkid", [device]).status !== 0) run("mkfs.xfs", ["-f", device]);
  mkdirSync(dir, { recursive: true });
  const uuid = run("blkid", ["-s", "UUID", "-o", "value", device]).trim();
  const fstab = existsSync("/etc/fstab") ? readFileSync("/etc/fstab", "utf8") : "";
  if (!fstab.includes(` ${dir} `)) appendFileSync("/etc/fstab", fstabLine(uuid, dir));
  if (spawnSync("mountpoint", ["-q", dir]).status !== 0) run("mount", [dir]);
}

function dataDevice(storage: ClusterDescription["storage"], env?: BootEnvironment): string {
  if (storage.data.kind === "ebs") return ebsDevice(storage.data.device, env);
  const disks = instanceStoreDevices(env);
  if (disks.length === 0) throw new Error("no instance-store disk found");
  if (disks.length === 1) return disks[0]!;
  if (!existsSync("/dev/md0")) run("mdadm", raidCommand(disks));
  return "/dev/md0";
}

export function mountVolumes(storage: ClusterDescription["storage"], env?: BootEnvironment): string[] {
  const data = dataDevice(storage, env);
  mountAt(data, storage.dataDir);
  const notes = [`data volume ${data} on ${storage.dataDir} (xfs, noatime, in fstab)`];
  if (storage.log && storage.logDir) {
    const log = ebsDevice(storage.log.device, env);
    mountAt(log, storage.logDir);
    notes.push(`log volume ${log} on ${storage.logDir}`);
  }
  return notes;
}

function writeIfPresent(file: string, value: string): boolean {
  try {
    if (!existsSync(file)) return false;
    writeFileSync(file, value);
    return true;
  } catch {
    // Some kernels expose the file read-only for some devices (e.g. a scheduler the device does not offer).
    return false;
  }
}

/**
 * Carries out engines/os-tuning.ts's steps for the engine; a step the kernel refuses is skipped, not fatal, and named
 * (a container may not write the host kernel's settings: the rehearsal then says which steps it could not apply).
 */
export function applyOsTuning(engine: Engine, version: string): string[] {
  const blockDevices = readdirSync("/sys/block").filter((d) => /^(nvme\d+n1|xvd|sd|md)/.test(d));
  const done: string[] = [];
  const refused: string[] = [];
  const note = (ok: boolean, what: string) => (ok ? done : refused).push(what);
  for (const step of tuningSteps(osTuning(engine, version))) {
    switch (step.kind) {
      case "each-block-device":
        note(
          blockDevices.length > 0 &&
            blockDevices.every((dev) => writeIfPresent(`/sys/block/${dev}/${step.file}`, step.value)),
          `${step.file} ${step.value}`,
        );
        break;
      case "read-ahead":
        note(
          blockDevices.length > 0 &&
            blockDevices.every(
              (dev) => spawnSync("blockdev", ["--setra", String(step.sectors), `/dev/${dev}`]).status === 0,
            ),
          `read-ahead ${step.sectors}`,
        );
        break;
      case "write":
        note(writeIfPresent(step.path, step.value), `${step.path.split("/").slice(-2).join("/")} ${step.value}`);
        break;
      case "swapoff":
        note(spawnSync("swapoff", ["-a"]).status === 0, "swap off");
        break;
      case "sysctl":
        note(spawnSync("sysctl", ["-w", `${step.key}=${step.value}`]).status === 0, `${step.key}=${step.value}`);
        break;
      case "limits":
        mkdirSync(dirname(step.path), { recursive: true });
        writeFileSync(step.path, step.content);
        done.push("limits");
        break;
    }
  }
  return [
    `tuning: ${done.join(", ") || "none applied"}${refused.length ? `; refused by this kernel: ${refused.join(", ")}` : ""}`,
  ];
}
