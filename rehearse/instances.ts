import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { instanceName } from "../model/instance-status.js";
import type { Credentials } from "./emulator.js";
import type { StackInstance } from "./evaluate.js";

/** One instance of the stack as a process tree on this machine: its user-data, run by bash, in its own folder. */
export class RehearsedInstance {
  readonly name: string;
  readonly home: string;
  private child?: ChildProcess;
  private exit?: Promise<number | null>;
  starts = 0;

  constructor(
    readonly spec: StackInstance,
    root: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.name = instanceName(spec.role, spec.index);
    this.home = join(root, this.name);
    mkdirSync(this.home, { recursive: true });
    writeFileSync(join(this.home, "user-data.sh"), spec.userData);
  }

  get consoleLog(): string {
    return join(this.home, "console.log");
  }

  /** Runs the user-data exactly as rendered (bash), as cloud-init would at first boot. */
  boot(): void {
    this.run(["bash", join(this.home, "user-data.sh")]);
  }

  /** Runs the boot command again, as systemd's Restart= would after the process died. */
  restart(): void {
    this.run([join(this.home, "boot")]);
  }

  private run(argv: string[]): void {
    this.starts++;
    const fd = openSync(this.consoleLog, "a");
    try {
      // Its own process group: a kill takes the boot command and everything it started (engines, YCSB).
      this.child = spawn(argv[0]!, argv.slice(1), { env: { ...this.env, YCSB_LAB_HOME: this.home }, cwd: this.home, stdio: ["ignore", fd, fd], detached: true });
    } finally {
      closeSync(fd);
    }
    const child = this.child;
    this.exit = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  exited(): Promise<number | null> {
    return this.exit ?? Promise.resolve(null);
  }

  /** Kills the whole process group (a machine that died: no graceful stop). */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    if (this.child?.pid && this.running) {
      try {
        process.kill(-this.child.pid, signal);
      } catch {
        // Already gone.
      }
    }
  }

  /** Stops it as a shutdown would: SIGTERM (engines flush), SIGKILL after the grace period. */
  async stop(graceMs = 20_000): Promise<void> {
    if (!this.running) return;
    this.kill("SIGTERM");
    const done = await Promise.race([this.exited().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), graceMs))]);
    if (!done) this.kill("SIGKILL");
    await this.exited();
  }

  /** The engine's Java processes of this data node (their command lines name its folder), for the failure drills. */
  enginePids(): number[] {
    const pids: number[] = [];
    for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
      try {
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
        if (cmdline.startsWith("java\0") && cmdline.includes(this.home) && !cmdline.includes("site.ycsb.Client")) pids.push(Number(entry));
      } catch {
        // Gone between listing and reading.
      }
    }
    return pids;
  }

  tail(lines = 30): string {
    try {
      return readFileSync(this.consoleLog, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  }
}

/** The environment of one instance: its role's credentials, the emulator, and the rehearsal's declared swaps. */
export function instanceEnvironment(o: {
  credentials: Credentials;
  endpoint: string;
  region: string;
  addressMap: string;
  awsCliDir: string;
  fsRoot?: string;
  engineArtifacts?: string;
  standIn?: string;
  maxHeapMb: number;
}): NodeJS.ProcessEnv {
  const nodeDir = dirname(process.execPath);
  return {
    PATH: [o.awsCliDir, nodeDir, process.env.PATH ?? "/usr/bin:/bin"].join(":"),
    HOME: process.env.HOME,
    LANG: "C.UTF-8",
    ...(process.env.JAVA_HOME ? { JAVA_HOME: process.env.JAVA_HOME } : {}),
    AWS_ACCESS_KEY_ID: o.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: o.credentials.secretAccessKey,
    AWS_REGION: o.region,
    AWS_ENDPOINT_URL: o.endpoint,
    // Never ask an instance metadata service: there is none on this machine (loopback only).
    AWS_EC2_METADATA_DISABLED: "true",
    YCSB_LAB_REHEARSAL: "1",
    YCSB_LAB_ADDRESS_MAP: o.addressMap,
    YCSB_LAB_MAX_HEAP_MB: String(o.maxHeapMb),
    ...(o.fsRoot ? { YCSB_LAB_FS_ROOT: o.fsRoot } : {}),
    ...(o.engineArtifacts ? { YCSB_LAB_ENGINE_ARTIFACTS: o.engineArtifacts } : {}),
    ...(o.standIn ? { YCSB_LAB_STAND_IN: o.standIn } : {}),
  };
}

