import { q } from "./shell.js";

/** Apache release archive: every old release stays there (downloads.apache.org keeps only the latest). */
export const APACHE_ARCHIVE = "https://archive.apache.org/dist";

/** Base packages every data node needs (JDK per engine, nvme-cli to find EBS volumes by device name, AWS CLI for S3/SSM). */
export function basePackages(javaPackage?: string): string {
  const pkgs = ["curl", "ca-certificates", "gnupg", "jq", "nvme-cli", "mdadm", "xfsprogs", "netcat-openbsd", "unzip", ...(javaPackage ? [javaPackage] : [])];
  return [
    "export DEBIAN_FRONTEND=noninteractive",
    "apt-get update -q",
    `apt-get install -y -q ${pkgs.join(" ")}`,
    // AWS CLI v2 is not an Ubuntu 24.04 package; the snap is preinstalled-compatible on Ubuntu cloud images.
    "command -v aws >/dev/null || snap install aws-cli --classic",
  ].join("\n");
}

/** Download an Apache tarball, check it against the .sha512 published beside it, unpack it into `dest`. */
export function apacheTarball(path: string, dest: string): string {
  const url = `${APACHE_ARCHIVE}/${path}`;
  const file = `/tmp/${path.split("/").pop()}`;
  return [
    `curl -fsSL --retry 5 -o ${q(file)} ${q(url)}`,
    `curl -fsSL --retry 5 -o ${q(file + ".sha512")} ${q(url + ".sha512")}`,
    // Apache .sha512 files come in two layouts ("<hash>  <file>" or "<file>: <HASH WITH SPACES>"): compare the hex only.
    `expected=$(tr -d ' \\n' < ${q(file + ".sha512")} | sed 's/^.*://' | grep -oiE '[0-9a-f]{128}' | tr 'A-F' 'a-f')`,
    `actual=$(sha512sum ${q(file)} | cut -d' ' -f1)`,
    `[ "$expected" = "$actual" ] || { echo "ycsb-lab: checksum mismatch for ${url}" >&2; exit 1; }`,
    `mkdir -p ${q(dest)}`,
    `tar -xzf ${q(file)} -C ${q(dest)} --strip-components=1`,
  ].join("\n");
}

/** A systemd unit for a process the engine runs in the foreground. */
export function systemdUnit(o: { description: string; user: string; exec: string; env?: Record<string, string>; after?: string }): string {
  const env = Object.entries(o.env ?? {})
    .map(([k, v]) => `Environment=${k}=${v}`)
    .join("\n");
  return `[Unit]
Description=${o.description}
After=network-online.target ${o.after ?? ""}
Wants=network-online.target
[Service]
User=${o.user}
${env}
ExecStart=${o.exec}
Restart=on-failure
LimitNOFILE=100000
LimitNPROC=64000
LimitMEMLOCK=infinity
[Install]
WantedBy=multi-user.target
`;
}

/** The leader's last step: the readiness marker the runner waits for (an object under the run's prefix). */
export function writeReadyMarker(readyMarkerUrl: string, detail: Record<string, unknown>): string {
  return [
    `printf '%s' ${q(JSON.stringify(detail))} > /tmp/ycsb-lab-ready.json`,
    `aws s3 cp /tmp/ycsb-lab-ready.json ${q(readyMarkerUrl)} --content-type application/json`,
  ].join("\n");
}
