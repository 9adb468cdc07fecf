import type { Engine } from "../model/engine.js";
import { writeFile } from "./shell.js";

/**
 * OS tuning from seed 002 appendix C ("we asked database vendors to recommend system-level parameters"), brought to
 * a current Ubuntu kernel. Applied by a systemd unit at every boot, not only the first.
 * Deliberately not applied: `barrier=0` (appendix C 6): it lets the disk reorder writes past an fsync and so defeats
 * the durable preset being measured.
 */
export interface OsTuning {
  /** appendix C 1: "NOOP scheduler for SSD"; blk-mq kernels call it "none". */
  ioScheduler: "none" | "mq-deadline";
  /** appendix C 2: "Decrease read-ahead value to 8" (512-byte sectors, blockdev --setra). */
  readAheadSectors: number;
  /** appendix C 8: transparent huge pages off (enabled and defrag). */
  transparentHugePages: "never";
  /** appendix C 9: "Turn swappiness off"; 1 rather than 0 so the kernel can still swap to avoid an OOM kill. */
  swappiness: number;
  /** appendix C 3 (nofile 100000, nproc 32768), Cassandra section (memlock, as unlimited), MongoDB section (nproc 64000). */
  limits: { nofile: number; nproc: number; memlock: "unlimited"; as: "unlimited" };
  /** Extra sysctls per engine. */
  sysctls: Record<string, string>;
}

export function osTuning(engine?: Engine): OsTuning {
  const sysctls: Record<string, string> = { "vm.swappiness": "1" };
  // Cassandra section 3 set 131072; Cassandra 5.0's production recommendations raise it to 1048575.
  if (engine === "cassandra" || engine === "hbase") sysctls["vm.max_map_count"] = "1048575";
  // Couchbase section 1: "echo 0 > /proc/sys/vm/zone_reclaim_mode".
  if (engine === "couchbase") sysctls["vm.zone_reclaim_mode"] = "0";
  return {
    ioScheduler: "none",
    readAheadSectors: 8,
    transparentHugePages: "never",
    swappiness: 1,
    // MongoDB section 3 asks `ulimit -u 64000`, above the general 32768: take the larger for every engine.
    limits: { nofile: 100000, nproc: 64000, memlock: "unlimited", as: "unlimited" },
    sysctls,
  };
}

/** The script the boot-time unit runs: block devices, THP, sysctls. */
export function renderTuningScript(t: OsTuning): string {
  const sysctl = Object.entries(t.sysctls)
    .map(([k, v]) => `sysctl -w ${k}=${v}`)
    .join("\n");
  return `#!/bin/bash
# ycsb-lab OS tuning (seed 002 appendix C), re-applied at every boot.
set -u
for dev in /sys/block/nvme*n1 /sys/block/xvd* /sys/block/sd*; do
  [ -e "$dev/queue/scheduler" ] || continue
  echo ${t.ioScheduler} > "$dev/queue/scheduler" 2>/dev/null || true
  blockdev --setra ${t.readAheadSectors} "/dev/$(basename "$dev")" || true
done
for f in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; do
  [ -e "$f" ] && echo ${t.transparentHugePages} > "$f"
done
swapoff -a || true
${sysctl}
`;
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

/** Bash that installs the tuning as a systemd oneshot unit and runs it now. */
export function osTuningSection(engine?: Engine): string {
  const t = osTuning(engine);
  const unit = `[Unit]
Description=ycsb-lab OS tuning (seed 002 appendix C)
After=local-fs.target
[Service]
Type=oneshot
ExecStart=/usr/local/sbin/ycsb-lab-tuning
RemainAfterExit=yes
[Install]
WantedBy=multi-user.target
`;
  return [
    writeFile("/usr/local/sbin/ycsb-lab-tuning", renderTuningScript(t), "0755"),
    writeFile("/etc/security/limits.d/90-ycsb-lab.conf", renderLimitsConf(t)),
    // systemd services ignore limits.conf: raise the defaults for units too.
    writeFile("/etc/systemd/system.conf.d/90-ycsb-lab.conf", `[Manager]\nDefaultLimitNOFILE=${t.limits.nofile}\nDefaultLimitNPROC=${t.limits.nproc}\nDefaultLimitMEMLOCK=infinity\n`),
    writeFile("/etc/systemd/system/ycsb-lab-tuning.service", unit),
    "systemctl daemon-reexec",
    "systemctl enable --now ycsb-lab-tuning.service",
  ].join("\n");
}
