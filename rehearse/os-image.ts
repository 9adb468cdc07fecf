import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { AmiDistribution } from "../infra/ami.js";
import { REPO_ROOT } from "../runner/java-artifacts.js";
import { withDirectoryLock } from "./directory-lock.js";

/**
 * The root file system a rehearsed instance boots: the AMI's distribution and release, built by debootstrap from
 * Debian's own mirror (this machine reaches it; Ubuntu's archive it does not), with what a cloud image of it has:
 * systemd as PID 1, cloud-init, python3 (cloud-init's), CA certificates. No Java and no Node.js: user-data installs
 * those as it does on EC2. Built once and cached under .cache/os/ by the hash of its recipe, so a second rehearsal
 * starts in seconds; every instance boots an overlay of it (its own writable layer, the image untouched).
 */
export interface OsImage {
  distribution: AmiDistribution;
  /** The read-only root file system. */
  rootfs: string;
  /** Debian packages downloaded by earlier rehearsals (/var/cache/apt/archives), a lower layer of every instance. */
  aptLayer: string;
  /** The recipe's hash: part of the folder's name. */
  recipe: string;
}

/** What the image has besides debootstrap's minimal base: a cloud image's boot path (python3-cffi-backend:
 * debootstrap does not resolve python3-cryptography's virtual dependency, and cloud-init then fails to configure). */
const PACKAGES = [
  "systemd",
  "systemd-sysv",
  "dbus",
  "udev",
  "kmod",
  "procps",
  "iproute2",
  "cloud-init",
  "python3-cffi-backend",
  "ca-certificates",
  "openssl",
];

/**
 * Units that would call out of this machine (time servers, apt's daily runs, DHCP) or wait for a network the
 * container shares with its host: masked. The rehearsal's containers reach loopback and Debian's mirror only.
 */
export const MASKED_UNITS = [
  "systemd-timesyncd.service",
  "apt-daily.timer",
  "apt-daily-upgrade.timer",
  "apt-daily.service",
  "apt-daily-upgrade.service",
  "dpkg-db-backup.timer",
  "e2scrub_all.timer",
  "fstrim.timer",
  "systemd-networkd.service",
  "systemd-networkd.socket",
  "systemd-networkd-wait-online.service",
  "systemd-resolved.service",
  "getty@tty1.service",
  "console-getty.service",
];

/** cloud-init reads its NoCloud seed only: it never probes 169.254.169.254 and configures no network. */
export const CLOUD_INIT_CONFIG = `# ycsb-lab rehearsal: the instance's user-data comes from its NoCloud seed; the host's network is shared as it is.
datasource_list: [NoCloud, None]
network: {config: disabled}
locale: C.UTF-8
`;

/** The files the rehearsal adds to the distribution's image (pure, for the recipe hash and tests). */
export function imageFiles(caCertificate: string): Array<{ path: string; content: string }> {
  return [
    { path: "/etc/cloud/cloud.cfg.d/90-ycsb-lab-rehearsal.cfg", content: CLOUD_INIT_CONFIG },
    // The rehearsal's front (rehearse/front.ts) answers for AWS and the vendors over TLS with this CA's certificate.
    { path: "/usr/local/share/ca-certificates/ycsb-lab-rehearsal.crt", content: caCertificate },
    // dpkg's fsyncs make every install of a rehearsal slow and prove nothing about the instance.
    { path: "/etc/dpkg/dpkg.cfg.d/ycsb-lab-rehearsal", content: "force-unsafe-io\n" },
  ];
}

export function imageRecipe(d: AmiDistribution, mirror: string, caCertificate: string): string {
  const text = JSON.stringify({
    v: 1,
    codename: d.codename,
    mirror,
    PACKAGES,
    MASKED_UNITS,
    files: imageFiles(caCertificate),
  });
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/** Debian's mirror (the host's own, where it names one; Debian's CDN otherwise). */
export function debianMirror(): string {
  return process.env.YCSB_LAB_DEBIAN_MIRROR ?? "http://deb.debian.org/debian";
}

function run(what: string, cmd: string, args: string[], log: (l: string) => void): void {
  const out = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 26 });
  if (out.status !== 0) {
    const tail = `${out.stdout ?? ""}\n${out.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${what} failed (${cmd} exit ${out.status ?? out.error?.message}):\n${tail}`);
  }
  log(`${what}: done`);
}

/** Checks this machine can build and boot images, naming the package for what is missing. */
export function checkMachineTools(): void {
  const missing = [
    ["debootstrap", "debootstrap"],
    ["systemd-nspawn", "systemd-container"],
    ["losetup", "mount"],
    ["openssl", "openssl"],
    ["xz", "xz-utils"],
  ].filter(([tool]) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
  if (missing.length)
    throw new Error(
      `rehearse: this machine lacks ${missing.map(([t]) => t).join(", ")}: apt-get install -y ${missing.map(([, p]) => p).join(" ")}`,
    );
  if (process.getuid?.() !== 0)
    throw new Error("rehearse: booting OS containers (systemd-nspawn), loop devices and overlay mounts need root");
}

/** The image of a distribution, built now if the cache has none of this recipe. */
export async function osImage(
  d: AmiDistribution,
  caCertificate: string,
  log: (l: string) => void = () => {},
): Promise<OsImage> {
  const mirror = debianMirror();
  const recipe = imageRecipe(d, mirror, caCertificate);
  const base = join(REPO_ROOT, ".cache", "os");
  const dir = join(base, `${d.id}-${recipe}`);
  const image: OsImage = { distribution: d, rootfs: join(dir, "rootfs"), aptLayer: join(base, `${d.id}-apt`), recipe };
  mkdirSync(join(image.aptLayer, "var", "cache", "apt", "archives"), { recursive: true });
  if (existsSync(join(dir, ".complete"))) return image;
  checkMachineTools();
  await withDirectoryLock(join(base, `${d.id}.lock`), async () => {
    if (existsSync(join(dir, ".complete"))) return;
    const building = `${dir}.building`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    mkdirSync(join(base, "debootstrap-cache"), { recursive: true });
    log(`image: debootstrap ${d.codename} from ${mirror} (once; about 2 minutes)`);
    run(
      "image: debootstrap",
      "debootstrap",
      [
        "--variant=minbase",
        `--include=${PACKAGES.join(",")}`,
        `--cache-dir=${join(base, "debootstrap-cache")}`,
        d.codename,
        join(building, "rootfs"),
        mirror,
      ],
      log,
    );
    prepare(join(building, "rootfs"), caCertificate, log);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
    writeFileSync(join(dir, ".complete"), `${new Date().toISOString()}\n`);
  });
  return image;
}

/**
 * Keeps the Debian packages an instance downloaded (its writable layer's /var/cache/apt/archives) in the image's apt
 * layer, so the next rehearsal's `apt-get install` finds them (apt checks each file against the package lists it
 * fetched) and downloads nothing. Returns how many were new.
 */
export async function keepAptDownloads(image: OsImage, upperDirs: string[]): Promise<number> {
  const into = join(image.aptLayer, "var", "cache", "apt", "archives");
  return withDirectoryLock(`${image.aptLayer}.lock`, async () => {
    let kept = 0;
    for (const upper of upperDirs) {
      const from = join(upper, "var", "cache", "apt", "archives");
      if (!existsSync(from)) continue;
      for (const deb of readdirSync(from).filter((f) => f.endsWith(".deb"))) {
        if (existsSync(join(into, deb))) continue;
        copyFileSync(join(from, deb), join(into, `${deb}.part`));
        renameSync(join(into, `${deb}.part`), join(into, deb));
        kept++;
      }
    }
    return kept;
  });
}

function prepare(rootfs: string, caCertificate: string, log: (l: string) => void): void {
  for (const f of imageFiles(caCertificate)) {
    mkdirSync(dirname(join(rootfs, f.path)), { recursive: true });
    writeFileSync(join(rootfs, f.path), f.content);
  }
  for (const unit of MASKED_UNITS) {
    const link = join(rootfs, "etc", "systemd", "system", unit);
    rmSync(link, { force: true });
    symlinkSync("/dev/null", link);
  }
  // Every instance gets a machine id of its own at its first boot, as a cloud image's first boot does.
  writeFileSync(join(rootfs, "etc", "machine-id"), "");
  rmSync(join(rootfs, "var", "lib", "dbus", "machine-id"), { force: true });
  run("image: trust the rehearsal's CA", "chroot", [rootfs, "update-ca-certificates"], log);
  // apt's lists and downloads of the build are dropped: an instance's `apt-get update` fetches its own.
  run("image: apt-get clean", "chroot", [rootfs, "apt-get", "clean"], log);
  const issue = readFileSync(join(rootfs, "etc", "os-release"), "utf8").match(/^PRETTY_NAME="([^"]+)"/m)?.[1];
  log(`image: ${issue ?? "unknown release"} ready`);
}
