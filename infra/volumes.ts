import { q } from "../engines/shell.js";

/** EBS device names infra attaches: on Nitro they appear as NVMe devices that report this name in their controller data. */
export const DATA_DEVICE = "sdf";
export const LOG_DEVICE = "sdg";

export interface VolumePlan {
  data: { kind: "instance-store" } | { kind: "ebs"; device: string };
  log?: { device: string };
  dataDir: string;
  logDir?: string;
}

/**
 * Bash that finds, formats (XFS: MongoDB's production notes recommend it; seed 002 used ext4 or XFS) and mounts the
 * data and log volumes with noatime (seed 002 appendix C 6). Instance-store disks are striped when there are several.
 */
export function mountVolumesScript(p: VolumePlan): string {
  const lines = [
    "ycsb_lab_ebs_device() { # EBS device name (sdf) -> its NVMe block device",
    "  for d in /dev/nvme[0-9]*n1; do",
    "    name=$(nvme id-ctrl --raw-binary \"$d\" 2>/dev/null | cut -c3073-3104 | tr -d ' \\000' | sed 's#^/dev/##')",
    "    if [ \"$name\" = \"$1\" ]; then echo \"$d\"; return 0; fi",
    "  done",
    "  return 1",
    "}",
    "ycsb_lab_mount() { # device dir",
    "  blkid \"$1\" >/dev/null 2>&1 || mkfs.xfs -f \"$1\"",
    "  mkdir -p \"$2\"",
    "  grep -q \" $2 \" /etc/fstab || echo \"UUID=$(blkid -s UUID -o value \"$1\") $2 xfs defaults,noatime,nofail 0 2\" >> /etc/fstab",
    "  mountpoint -q \"$2\" || mount \"$2\"",
    "}",
  ];
  if (p.data.kind === "instance-store") {
    lines.push(
      "mapfile -t ycsb_lab_disks < <(lsblk -dpno NAME,MODEL | awk '/Instance Storage/ {print $1}')",
      '[ "${#ycsb_lab_disks[@]}" -ge 1 ] || { echo "ycsb-lab: no instance-store disk found" >&2; exit 1; }',
      'if [ "${#ycsb_lab_disks[@]}" -eq 1 ]; then ycsb_lab_data_dev="${ycsb_lab_disks[0]}"; else',
      '  [ -e /dev/md0 ] || mdadm --create /dev/md0 --run --level=0 --raid-devices="${#ycsb_lab_disks[@]}" "${ycsb_lab_disks[@]}"',
      "  ycsb_lab_data_dev=/dev/md0",
      "fi",
    );
  } else {
    lines.push(`ycsb_lab_data_dev=$(ycsb_lab_ebs_device ${q(p.data.device)})`);
  }
  lines.push(`ycsb_lab_mount "$ycsb_lab_data_dev" ${q(p.dataDir)}`);
  if (p.log && p.logDir) lines.push(`ycsb_lab_mount "$(ycsb_lab_ebs_device ${q(p.log.device)})" ${q(p.logDir)}`);
  return lines.join("\n");
}
