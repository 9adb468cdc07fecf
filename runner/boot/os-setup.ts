import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ClusterDescription } from "../../model/cluster-description.js";
import type { Engine } from "../../model/engine.js";
import { osTuning, tuningSteps } from "../../engines/os-tuning.js";

/**
 * What a data node does to its machine before the engine: mount the data (and log) volume and apply the OS tuning
 * of seed 002 appendix C (engines/os-tuning.ts). Run on instances only: a rehearsal leaves this machine alone.
 */

function run(cmd: string, args: string[]): string {
  const out = spawnSync(cmd, args, { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${(out.stderr || out.error?.message || `exit ${out.status}`).trim()}`);
  return out.stdout;
}

/** The NVMe block device an EBS volume attached as `name` (e.g. "sdf") appears as: Nitro reports it in the controller's vendor data. */
export function ebsDevice(name: string): string {
  for (const d of readdirSync("/dev").filter((f) => /^nvme\d+n1$/.test(f))) {
    const raw = spawnSync("nvme", ["id-ctrl", "--raw-binary", `/dev/${d}`]);
    if (raw.status !== 0) continue;
    // Bytes 3072..3104 hold the block device name the volume was attached under (AWS docs, "Amazon EBS and NVMe").
    const attached = raw.stdout.subarray(3072, 3104).toString("latin1").replace(/[\0 ]/g, "").replace(/^\/dev\//, "");
    if (attached === name) return `/dev/${d}`;
  }
  throw new Error(`no NVMe device reports the EBS attachment "${name}"`);
}

function instanceStoreDevices(): string[] {
  return run("lsblk", ["-dpno", "NAME,MODEL"])
    .split("\n")
    .filter((l) => /Instance Storage/.test(l))
    .map((l) => l.trim().split(/\s+/)[0]!);
}

/** XFS (MongoDB's production notes; seed 002 used ext4 or XFS), noatime (seed 002 appendix C 6), in fstab. */
function mountAt(device: string, dir: string): void {
  if (spawnSync("blkid", [device]).status !== 0) run("mkfs.xfs", ["-f", device]);
  mkdirSync(dir, { recursive: true });
  const uuid = run("blkid", ["-s", "UUID", "-o", "value", device]).trim();
  const fstab = readFileSync("/etc/fstab", "utf8");
  if (!fstab.includes(` ${dir} `)) appendFileSync("/etc/fstab", `UUID=${uuid} ${dir} xfs defaults,noatime,nofail 0 2\n`);
  if (spawnSync("mountpoint", ["-q", dir]).status !== 0) run("mount", [dir]);
}

export function mountVolumes(storage: ClusterDescription["storage"]): string[] {
  let data: string;
  if (storage.data.kind === "ebs") data = ebsDevice(storage.data.device);
  else {
    const disks = instanceStoreDevices();
    if (disks.length === 0) throw new Error("no instance-store disk found");
    if (disks.length === 1) data = disks[0]!;
    else {
      // Several local disks are striped into one (seed 001's m1.xlarge had four).
      if (!existsSync("/dev/md0")) run("mdadm", ["--create", "/dev/md0", "--run", "--level=0", `--raid-devices=${disks.length}`, ...disks]);
      data = "/dev/md0";
    }
  }
  mountAt(data, storage.dataDir);
  const notes = [`data volume ${data} on ${storage.dataDir}`];
  if (storage.log && storage.logDir) {
    const log = ebsDevice(storage.log.device);
    mountAt(log, storage.logDir);
    notes.push(`log volume ${log} on ${storage.logDir}`);
  }
  return notes;
}

function writeIfPresent(file: string, value: string): void {
  try {
    if (existsSync(file)) writeFileSync(file, value);
  } catch {
    // Some kernels expose the file read-only for some devices (e.g. a scheduler the device does not offer).
  }
}

/** Carries out engines/os-tuning.ts's steps for the engine; a step the kernel refuses is skipped, not fatal. */
export function applyOsTuning(engine: Engine, version: string): string[] {
  const blockDevices = readdirSync("/sys/block").filter((d) => /^(nvme\d+n1|xvd|sd|md)/.test(d));
  const done: string[] = [];
  for (const step of tuningSteps(osTuning(engine, version))) {
    switch (step.kind) {
      case "each-block-device":
        for (const dev of blockDevices) writeIfPresent(`/sys/block/${dev}/${step.file}`, step.value);
        done.push(`${step.file} ${step.value}`);
        break;
      case "read-ahead":
        for (const dev of blockDevices) spawnSync("blockdev", ["--setra", String(step.sectors), `/dev/${dev}`]);
        done.push(`read-ahead ${step.sectors}`);
        break;
      case "write":
        writeIfPresent(step.path, step.value);
        done.push(`${step.path.split("/").slice(-2).join("/")} ${step.value}`);
        break;
      case "swapoff":
        spawnSync("swapoff", ["-a"]);
        done.push("swap off");
        break;
      case "sysctl":
        if (spawnSync("sysctl", ["-w", `${step.key}=${step.value}`]).status === 0) done.push(`${step.key}=${step.value}`);
        break;
      case "limits":
        mkdirSync(dirname(step.path), { recursive: true });
        writeFileSync(step.path, step.content);
        done.push("limits");
        break;
    }
  }
  return [`tuning: ${done.join(", ")}`];
}
