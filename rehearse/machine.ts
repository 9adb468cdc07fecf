import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { INSTANCE_HOME } from "../infra/user-data.js";
import type { OsImage } from "./os-image.js";

/**
 * One instance of a stack as an OS container: the image (rehearse/os-image.ts) under a writable layer of its own,
 * booted by systemd-nspawn with systemd as PID 1, cloud-init reading the instance's exact user-data from a NoCloud
 * seed, its disks as loop devices under the NVMe names Nitro gives them. It shares this machine's network namespace
 * (no veth, no bridge): its services bind the loopback address the rehearsal maps its private IP to.
 * `systemd-nspawn --register=no --keep-unit`: this machine's PID 1 is not systemd, so there is no machined to
 * register with and no unit to create.
 */
export interface SeamFile {
  /** Absolute path inside the instance. */
  path: string;
  content: string;
  mode?: number;
  /** A symbolic link to this target instead of a file (e.g. a unit enabled in a target's .wants/). */
  symlink?: string;
}

export interface MachineDisk {
  /** The device inside the instance, e.g. /dev/nvme1n1. */
  device: string;
  sizeMiB: number;
}

export interface MachineOptions {
  /** The instance's name (node-0, client-1): its folder and hostname. */
  name: string;
  /** The instance's folder: its writable layer, disks and console log. */
  dir: string;
  image: OsImage;
  /** Unique among running containers (nspawn's machine name). */
  machineName: string;
  /** Files the rehearsal places before the first boot: the NoCloud seed and the declared swaps (rehearse/seam.ts). */
  files: SeamFile[];
  /** Host folders mounted read-only (local artifacts standing for vendor downloads). */
  readOnly: Array<{ host: string; guest: string }>;
  disks: MachineDisk[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A file's last `lines` lines, "" when it cannot be read (not written yet). */
function lastLines(path: string, lines: number): string {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/** Where the rehearsal mounts the unified cgroup hierarchy when this machine has none mounted (cgroup v1 hosts). */
const UNIFIED_MOUNT = "/run/ycsb-lab-rehearsal/cgroup2";
const CGROUP_PARENT = "ycsb-lab-rehearsal";

/** The cgroup hierarchies nspawn places a container in: systemd's named v1 hierarchy, and the unified one. */
function cgroupHierarchies(): string[] {
  const mounts = readFileSync("/proc/mounts", "utf8")
    .split("\n")
    .map((l) => l.split(" "));
  const unified = mounts.find((m) => m[2] === "cgroup2")?.[1];
  const named = mounts.find((m) => m[2] === "cgroup" && (m[3] ?? "").split(",").includes("name=systemd"))?.[1];
  if (!unified) {
    mkdirSync(UNIFIED_MOUNT, { recursive: true });
    if (spawnSync("mountpoint", ["-q", UNIFIED_MOUNT]).status !== 0)
      sh("mount", ["-t", "cgroup2", "none", UNIFIED_MOUNT]);
  }
  return [unified ?? UNIFIED_MOUNT, ...(named ? [named] : [])];
}

/**
 * A cgroup of its own for every container, in every hierarchy: nspawn splits the cgroup it starts in into payload/ and
 * supervisor/, so containers started from one cgroup would share /payload/system.slice/<unit> and systemd in one
 * container could neither see nor kill the processes of its own unit (found: a restarted client beside its old YCSB).
 */
function containerCgroups(machineName: string): string[] {
  return cgroupHierarchies().map((h) => join(h, CGROUP_PARENT, machineName));
}

/** Removes a container's cgroups once it is gone (leaves first: a cgroup is removed with rmdir, empty). */
function removeCgroups(dirs: string[]): void {
  const remove = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) remove(join(dir, e.name));
    spawnSync("rmdir", [dir]);
  };
  for (const d of dirs) remove(d);
}

function sh(cmd: string, args: string[]): string {
  const out = spawnSync(cmd, args, { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${(out.stderr || out.error?.message || "").trim()}`);
  return out.stdout.trim();
}

function mounted(dir: string): boolean {
  return spawnSync("mountpoint", ["-q", dir]).status === 0;
}

export class Machine {
  readonly name: string;
  readonly dir: string;
  private readonly merged: string;
  private readonly loops: string[] = [];
  private child?: ChildProcess;
  private exit?: Promise<number | null>;
  private cgroups: string[] = [];
  /** When it booted and when its last process ended (ms since the epoch). */
  bootedAt?: number;
  endedAt?: number;

  constructor(private readonly o: MachineOptions) {
    this.name = o.name;
    this.dir = o.dir;
    this.merged = join(o.dir, "root");
  }

  get consoleLog(): string {
    return join(this.dir, "console.log");
  }

  /** Its writable layer (what the instance changed of the image). */
  get upper(): string {
    return join(this.dir, "upper");
  }

  /** A path inside the instance as this machine sees it (its root while it runs, its writable layer after). */
  path(inside: string): string {
    return join(mounted(this.merged) ? this.merged : join(this.dir, "upper"), inside);
  }

  /** Mounts its root, attaches its disks, places the seed and swaps, and boots it (cloud-init then runs user-data). */
  boot(): void {
    for (const d of ["upper", "work", "root", "disks"]) mkdirSync(join(this.dir, d), { recursive: true });
    Machine.release(this.dir);
    sh("mount", [
      "-t",
      "overlay",
      "overlay",
      "-o",
      `lowerdir=${this.o.image.aptLayer}:${this.o.image.rootfs},upperdir=${join(this.dir, "upper")},workdir=${join(this.dir, "work")}`,
      this.merged,
    ]);
    for (const f of this.o.files) {
      const target = join(this.merged, f.path);
      mkdirSync(dirname(target), { recursive: true });
      rmSync(target, { force: true });
      if (f.symlink) {
        symlinkSync(f.symlink, target);
        continue;
      }
      writeFileSync(target, f.content);
      chmodSync(target, f.mode ?? 0o644);
    }
    const args = [
      "--quiet",
      "--register=no",
      "--keep-unit",
      "--boot",
      "--directory",
      this.merged,
      `--machine=${this.o.machineName}`,
      "--link-journal=no",
      "--timezone=off",
    ];
    for (const [i, disk] of this.o.disks.entries()) {
      const file = join(this.dir, "disks", `disk${i}.img`);
      // Sparse: a loop device of the volume's rehearsal size costs only what the engine writes.
      if (!existsSync(file)) sh("truncate", ["-s", `${disk.sizeMiB}M`, file]);
      const loop = sh("losetup", ["--find", "--show", file]);
      this.loops.push(loop);
      args.push(`--bind=${loop}:${disk.device}`);
    }
    for (const ro of this.o.readOnly) args.push(`--bind-ro=${ro.host}:${ro.guest}`);
    this.cgroups = containerCgroups(this.o.machineName);
    const fd = openSync(this.consoleLog, "a");
    // The shell moves itself into the container's own cgroups, then becomes nspawn.
    const enter =
      'for d in "$@"; do case "$d" in --) break;; esac; mkdir -p "$d"; echo $$ > "$d/cgroup.procs"; done; while [ "$1" != -- ]; do shift; done; shift; exec systemd-nspawn "$@"';
    try {
      this.child = spawn("sh", ["-c", enter, "sh", ...this.cgroups, "--", ...args], { stdio: ["ignore", fd, fd] });
    } finally {
      closeSync(fd);
    }
    const child = this.child;
    this.bootedAt = Date.now();
    this.exit = new Promise((resolve) =>
      child.once("exit", (code) => {
        this.endedAt = Date.now();
        resolve(code);
      }),
    );
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  exited(): Promise<number | null> {
    return this.exit ?? Promise.resolve(null);
  }

  /** PID 1 of the container, as this machine numbers it (nspawn's child). */
  private initPid(): number | undefined {
    const parent = this.child?.pid;
    if (!parent) return undefined;
    for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
      try {
        if (Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]) === parent)
          return Number(entry);
      } catch {
        // Gone meanwhile.
      }
    }
    return undefined;
  }

  /** Every process of the instance (this machine's pids), with its command line: what `ps` inside would list. */
  processes(): Array<{ pid: number; command: string }> {
    const init = this.initPid();
    if (!init) return [];
    let ns: string;
    try {
      ns = readlinkSync(`/proc/${init}/ns/pid`);
    } catch {
      return [];
    }
    const out: Array<{ pid: number; command: string }> = [];
    for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
      try {
        if (readlinkSync(`/proc/${entry}/ns/pid`) !== ns) continue;
        out.push({
          pid: Number(entry),
          command: readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim(),
        });
      } catch {
        // Gone meanwhile, or a kernel thread.
      }
    }
    return out;
  }

  /** The machine dies at once (as a lost instance does): PID 1 of its namespace killed takes every process with it. */
  kill(): void {
    const init = this.initPid();
    if (init) {
      try {
        process.kill(init, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }

  /** A clean shutdown (systemd stops every unit, engines flush), the machine killed after the grace period. */
  async stop(graceMs = 60_000): Promise<void> {
    if (this.running) {
      // nspawn turns SIGTERM into the container's poweroff (SIGRTMIN+3 to its systemd).
      this.child!.kill("SIGTERM");
      const done = await Promise.race([this.exited().then(() => true), sleep(graceMs).then(() => false)]);
      if (!done) {
        this.kill();
        await Promise.race([this.exited(), sleep(10_000)]);
      }
    }
    this.detach();
  }

  /** Unmounts its root and detaches its disks (after it stopped). */
  detach(): void {
    if (mounted(this.merged)) spawnSync("umount", ["--lazy", this.merged]);
    for (const loop of this.loops.splice(0)) spawnSync("losetup", ["--detach", loop]);
    if (!this.running) removeCgroups(this.cgroups);
  }

  /** The last lines of the instance's own boot log (runner/boot/boot.ts: <home>/logs/<name>.log), "" when it has none. */
  bootLogTail(lines = 30): string {
    return lastLines(join(this.upper, INSTANCE_HOME.slice(1), "logs", `${this.name}.log`), lines);
  }

  /** The last lines of its console, "" before it has one. */
  tail(lines = 30): string {
    return lastLines(this.consoleLog, lines);
  }

  /** What a rehearsal that died left of an instance folder: its root mount and its disks' loop devices. */
  static release(dir: string): void {
    const merged = join(dir, "root");
    if (mounted(merged)) spawnSync("umount", ["--lazy", merged]);
    const disks = join(dir, "disks");
    if (!existsSync(disks)) return;
    for (const f of readdirSync(disks).filter((n) => n.endsWith(".img"))) {
      const attached = spawnSync(
        "losetup",
        ["--list", "--noheadings", "--output", "NAME", "--associated", join(disks, f)],
        { encoding: "utf8" },
      ).stdout.trim();
      for (const loop of attached.split("\n").filter(Boolean)) spawnSync("losetup", ["--detach", loop]);
    }
  }

  /**
   * A stopped instance kept for inspection, without the software it installed: /usr (apt's packages, Node.js, the
   * JDK) and /var/cache (apt's downloads, already kept for the next rehearsal), each reinstalled alike by the next boot,
   * were about 90 % of a kept instance (600 MB to 1.7 GB each: enough, over a suite's failure drills, to fill a
   * disk). Its logs, /etc, /var/lib, home folders, kit and disks stay.
   */
  dropSoftware(): void {
    if (mounted(this.merged)) return;
    for (const d of ["usr", "var/cache"]) rmSync(join(this.dir, "upper", d), { recursive: true, force: true });
  }

  /** Removes the folder (after detach). */
  remove(): void {
    Machine.release(this.dir);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
