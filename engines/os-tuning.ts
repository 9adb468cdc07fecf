import type { Engine } from "../model/engine.js";

/**
 * OS tuning from seed 002 appendix C ("we asked database vendors to recommend system-level parameters"), brought to
 * a current Debian kernel. Applied by a systemd unit at every boot, not only the first.
 * Deliberately not applied: `barrier=0` (appendix C 6): it lets the disk reorder writes past an fsync and so defeats
 * the durable preset being measured.
 */
export interface OsTuning {
  /** appendix C 1: "NOOP scheduler for SSD"; blk-mq kernels call it "none". */
  ioScheduler: "none" | "mq-deadline";
  /** appendix C 2: "Decrease read-ahead value to 8" (512-byte sectors, blockdev --setra). */
  readAheadSectors: number;
  /**
   * appendix C 8: transparent huge pages off ("never", enabled and defrag), except MongoDB 8.0 and later, whose
   * TCMalloc with per-CPU caches wants them on ("always", defrag "defer+madvise", khugepaged max_ptes_none 0,
   * overcommit 1: MongoDB manual, "TCMalloc Performance Optimization for a Self-Managed Deployment", changed in 8.0).
   */
  transparentHugePages: "never" | "always";
  thpDefrag: "never" | "defer+madvise";
  /** Further sysfs writes the engine's vendor asks for (path -> value). */
  sysfs: Record<string, string>;
  /** appendix C 9: "Turn swappiness off"; 1 rather than 0 so the kernel can still swap to avoid an OOM kill. */
  swappiness: number;
  /** appendix C 3 (nofile 100000, nproc 32768), Cassandra section (memlock, as unlimited), MongoDB section (nproc 64000). */
  limits: { nofile: number; nproc: number; memlock: "unlimited"; as: "unlimited" };
  /** Extra sysctls per engine. */
  sysctls: Record<string, string>;
}

/** MongoDB 8.0's TCMalloc wants THP; 7.0 and earlier want it off. */
export function mongoWantsThp(version: string): boolean {
  return Number(version.split(".")[0]) >= 8;
}

export function osTuning(engine?: Engine, version = ""): OsTuning {
  const sysctls: Record<string, string> = { "vm.swappiness": "1" };
  const thp = engine === "mongodb" && mongoWantsThp(version);
  if (thp) sysctls["vm.overcommit_memory"] = "1";
  // Cassandra section 3 set 131072; Cassandra 5.0's production recommendations raise it to 1048575.
  if (engine === "cassandra" || engine === "hbase") sysctls["vm.max_map_count"] = "1048575";
  // Couchbase section 1: "echo 0 > /proc/sys/vm/zone_reclaim_mode".
  if (engine === "couchbase") sysctls["vm.zone_reclaim_mode"] = "0";
  return {
    ioScheduler: "none",
    readAheadSectors: 8,
    transparentHugePages: thp ? "always" : "never",
    thpDefrag: thp ? "defer+madvise" : "never",
    sysfs: thp ? { "/sys/kernel/mm/transparent_hugepage/khugepaged/max_ptes_none": "0" } : {},
    swappiness: 1,
    // MongoDB section 3 asks `ulimit -u 64000`, above the general 32768: take the larger for every engine.
    limits: { nofile: 100000, nproc: 64000, memlock: "unlimited", as: "unlimited" },
    sysctls,
  };
}

/** One step of the tuning the boot command applies at every start of the service (i.e. at every boot). */
export type TuningStep =
  | { kind: "each-block-device"; file: "queue/scheduler"; value: string }
  | { kind: "read-ahead"; sectors: number }
  | { kind: "write"; path: string; value: string }
  | { kind: "swapoff" }
  | { kind: "sysctl"; key: string; value: string }
  | { kind: "limits"; path: string; content: string };

/**
 * The tuning as steps (runner/boot/os-setup.ts carries them out): block devices, THP, swap, sysctls, limits.
 * Nothing here lets the disk reorder writes past an fsync (no barrier=0, see above).
 */
export function tuningSteps(t: OsTuning): TuningStep[] {
  return [
    { kind: "each-block-device", file: "queue/scheduler", value: t.ioScheduler },
    { kind: "read-ahead", sectors: t.readAheadSectors },
    { kind: "write", path: "/sys/kernel/mm/transparent_hugepage/enabled", value: t.transparentHugePages },
    { kind: "write", path: "/sys/kernel/mm/transparent_hugepage/defrag", value: t.thpDefrag },
    ...Object.entries(t.sysfs).map(([path, value]) => ({ kind: "write" as const, path, value })),
    { kind: "swapoff" },
    ...Object.entries(t.sysctls).map(([key, value]) => ({ kind: "sysctl" as const, key, value })),
    { kind: "limits", path: "/etc/security/limits.d/90-ycsb-lab.conf", content: renderLimitsConf(t) },
  ];
}

/** limits.d file for every user (the engines run as their own users). */
export function renderLimitsConf(t: OsTuning): string {
  const l = t.limits;
  return [
    "# ycsb-lab: seed 002 appendix C",
    `* - nofile ${l.nofile}`,
    `* - nproc ${l.nproc}`,
    `* - memlock ${l.memlock}`,
    `* - as ${l.as}`,
    `root - nofile ${l.nofile}`,
    "",
  ].join("\n");
}
