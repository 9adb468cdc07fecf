import { join, resolve } from "node:path";

/**
 * Where the boot command runs and what a rehearsal swapped. On an EC2 instance only YCSB_LAB_HOME (and AWS_REGION)
 * are set. `ycsb-lab rehearse` runs the very same user-data on this machine and declares each swap in the
 * environment; every swap is refused unless YCSB_LAB_REHEARSAL=1, so an instance can never be swapped silently,
 * and every swap is named in the instance's status.
 */
export interface BootEnvironment {
  /** The instance's ycsb-lab folder: the kit, the spool, the engine, logs. */
  home: string;
  rehearsal: boolean;
  /** Private addresses of the stack -> the loopback addresses that stand for them. */
  addressMap: Map<string, string>;
  /**
   * Absolute paths of the cluster description (the /data and /log mount points) are rooted here: the boot runs as a
   * process on a development machine (test/support/boot-run.ts), so it mounts no disk, tunes no kernel and installs
   * no OS package. An OS-container rehearsal never sets it: its disks are loop devices it mounts for real.
   */
  fsRoot?: string;
  /**
   * EBS attachment names -> block devices, where the device cannot say its attachment name itself: a rehearsal's loop
   * devices stand for Nitro NVMe volumes, and `nvme id-ctrl` cannot read a loop device.
   */
  blockDevices: Map<string, string>;
  /** The instance-store disks, where no device reports the model "Amazon EC2 NVMe Instance Storage" (a rehearsal). */
  instanceStore?: string[];
  /** A folder laid out like the engine's unpacked distribution, used instead of downloading it. */
  engineArtifacts?: string;
  /** A stand-in server to run instead of the engine (FerretDB for MongoDB, CouchbaseMock for Couchbase). */
  standInArtifacts?: string;
  /** Cap on every engine JVM's heap (the rehearsal's nodes share one machine). */
  maxHeapMb?: number;
  /** How long a read of the run's own objects (plan, cluster description) retries transient errors. @default 60 s */
  readRetryMs?: number;
}

export const EXIT_PERMANENT = 78;

function parseAddressMap(text: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [from, to] = pair.split("=");
    if (!from || !to) throw new Error(`YCSB_LAB_ADDRESS_MAP: expected from=to pairs, got "${pair}"`);
    if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(to))
      throw new Error(`YCSB_LAB_ADDRESS_MAP: ${from} may only stand in for a loopback address, got "${to}"`);
    map.set(from, to);
  }
  return map;
}

function parseBlockDevices(text: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, device] = pair.split("=");
    if (!name || !device?.startsWith("/dev/"))
      throw new Error(`YCSB_LAB_BLOCK_DEVICES: expected name=/dev/device pairs, got "${pair}"`);
    map.set(name, device);
  }
  return map;
}

export function bootEnvironment(env: NodeJS.ProcessEnv = process.env): BootEnvironment {
  const rehearsal = env.YCSB_LAB_REHEARSAL === "1";
  const swaps = [
    "YCSB_LAB_ADDRESS_MAP",
    "YCSB_LAB_FS_ROOT",
    "YCSB_LAB_ENGINE_ARTIFACTS",
    "YCSB_LAB_STAND_IN",
    "YCSB_LAB_MAX_HEAP_MB",
    "YCSB_LAB_BLOCK_DEVICES",
    "YCSB_LAB_INSTANCE_STORE",
  ].filter((k) => env[k]);
  if (!rehearsal && swaps.length > 0)
    throw new Error(`${swaps.join(", ")}: rehearsal settings, refused without YCSB_LAB_REHEARSAL=1`);
  const heap = env.YCSB_LAB_MAX_HEAP_MB ? Number(env.YCSB_LAB_MAX_HEAP_MB) : undefined;
  if (heap !== undefined && !(Number.isInteger(heap) && heap >= 128))
    throw new Error(`YCSB_LAB_MAX_HEAP_MB: a whole number of MiB >= 128, got "${env.YCSB_LAB_MAX_HEAP_MB}"`);
  // Not a swap: an operator may give a slow bucket longer (or a test an unreachable one less) on EC2 as well.
  const readRetry = env.YCSB_LAB_READ_RETRY_SECONDS ? Number(env.YCSB_LAB_READ_RETRY_SECONDS) : undefined;
  if (readRetry !== undefined && !(Number.isInteger(readRetry) && readRetry >= 1))
    throw new Error(
      `YCSB_LAB_READ_RETRY_SECONDS: a whole number of seconds >= 1, got "${env.YCSB_LAB_READ_RETRY_SECONDS}"`,
    );
  return {
    home: resolve(env.YCSB_LAB_HOME ?? "/opt/ycsb-lab"),
    rehearsal,
    addressMap: parseAddressMap(env.YCSB_LAB_ADDRESS_MAP),
    blockDevices: parseBlockDevices(env.YCSB_LAB_BLOCK_DEVICES),
    ...(env.YCSB_LAB_INSTANCE_STORE
      ? {
          instanceStore: env.YCSB_LAB_INSTANCE_STORE.split(",")
            .map((d) => d.trim())
            .filter(Boolean),
        }
      : {}),
    ...(env.YCSB_LAB_FS_ROOT ? { fsRoot: resolve(env.YCSB_LAB_FS_ROOT) } : {}),
    ...(env.YCSB_LAB_ENGINE_ARTIFACTS ? { engineArtifacts: resolve(env.YCSB_LAB_ENGINE_ARTIFACTS) } : {}),
    ...(env.YCSB_LAB_STAND_IN ? { standInArtifacts: resolve(env.YCSB_LAB_STAND_IN) } : {}),
    ...(heap !== undefined ? { maxHeapMb: heap } : {}),
    ...(readRetry !== undefined ? { readRetryMs: readRetry * 1000 } : {}),
  };
}

/** A path of the cluster description (e.g. the /data mount point) as this boot sees it. */
export function hostPath(env: BootEnvironment, path: string): string {
  return env.fsRoot ? join(env.fsRoot, path) : path;
}

/** An address of the cluster description as this boot reaches it. */
export function hostAddress(env: BootEnvironment, address: string): string {
  return env.addressMap.get(address) ?? address;
}

/** One line per swap, for the instance's status and log. */
export function rehearsalNotes(env: BootEnvironment): string[] {
  if (!env.rehearsal) return [];
  const notes = [
    env.fsRoot
      ? "rehearsal: a process on this machine: OS packages, disks and kernel tuning are this machine's, not the instance's"
      : "rehearsal: an OS container of the AMI's distribution (systemd, cloud-init), sharing this machine's kernel and network",
  ];
  if (env.addressMap.size > 0)
    notes.push(`addresses: ${[...env.addressMap].map(([a, b]) => `${a} -> ${b}`).join(", ")}`);
  if (env.fsRoot) notes.push(`volumes: mount points under ${env.fsRoot}`);
  if (env.blockDevices.size > 0)
    notes.push(
      `disks: loop devices as ${[...env.blockDevices].map(([a, d]) => `${a} -> ${d}`).join(", ")} (their EBS names given, not read from NVMe controller data)`,
    );
  if (env.instanceStore) notes.push(`disks: instance store ${env.instanceStore.join(", ")} (loop devices)`);
  if (env.engineArtifacts) notes.push(`engine: local artifacts ${env.engineArtifacts} instead of the vendor download`);
  if (env.standInArtifacts) notes.push(`engine: stand-in ${env.standInArtifacts}`);
  if (env.maxHeapMb) notes.push(`memory: engine heap capped at ${env.maxHeapMb} MiB`);
  return notes;
}
