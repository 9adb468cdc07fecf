import { q } from "../engines/shell.js";
import { instanceName, type InstanceRole } from "../model/instance-status.js";
import { kitKey, runPrefix, statusKey, statusLogKey } from "../model/results-layout.js";

/**
 * The user-data of every instance (DESIGN.md "One boot path"): the OS packages (Java, Node.js, the AWS CLI that
 * fetches the kit), the kit the stack uploaded, and one `ycsb-lab boot` command run as a systemd service. Everything
 * else (volumes, tuning, the engine, formation, the plan) is that command's. `ycsb-lab rehearse` runs this very
 * text on a development machine with YCSB_LAB_REHEARSAL=1, which skips the packages (the machine has Java and Node)
 * and runs the boot command in the foreground instead of as a service.
 */

/** Node.js for the boot command, from nodejs.org, checked against its published SHA-256 list (Ubuntu 24.04 ships 18). */
export const NODE_VERSION = "20.20.2";

/** The one JDK of every instance: Cassandra 5.0 and YCSB support Java 17, HBase 2.5 runs on it with its own flags. */
export const JAVA_PACKAGE = "openjdk-17-jre-headless";

/** What the boot command calls on a data node's machine: nvme-cli finds EBS volumes, mdadm stripes local disks. */
const DATA_NODE_PACKAGES = ["nvme-cli", "mdadm", "xfsprogs"];

/** The service's home on an instance (YCSB_LAB_HOME). */
export const INSTANCE_HOME = "/opt/ycsb-lab";

/** Exit code of a boot that failed for good: systemd must not restart it (a looping fleet costs money). */
export const EXIT_PERMANENT = 78;

export interface InstanceBoot {
  role: InstanceRole;
  index: number;
  runId: string;
  region: string;
  bucket: string;
  /** The kit's archive SHA-256: fetched from kits/<sha256>.tar.gz and checked. */
  kitSha256: string;
}

/** The boot command line, with the kit's CLI: what systemd's ExecStart runs, and what the rehearsal runs. */
export function bootCommand(b: InstanceBoot): string {
  return [
    'exec node "$YCSB_LAB_HOME/kit/bin/ycsb-lab.mjs" boot',
    "--role",
    b.role,
    "--index",
    String(b.index),
    "--run",
    q(`s3://${b.bucket}/${runPrefix(b.runId)}`),
  ].join(" ");
}

export function instanceUserData(b: InstanceBoot): string {
  const instance = instanceName(b.role, b.index);
  const nodeTar = `node-v${NODE_VERSION}-linux-x64.tar.xz`;
  // The dashboard service runs no YCSB and no engine: Node.js alone.
  const packages = ["curl", "ca-certificates", "xz-utils", ...(b.role === "dashboard" ? [] : [JAVA_PACKAGE]), ...(b.role === "data" ? DATA_NODE_PACKAGES : [])];
  const what = b.role === "data" ? "data node" : b.role === "client" ? "client" : "dashboard service";
  const status = `s3://${b.bucket}/${statusKey(b.runId, instance)}`;
  const logTail = `s3://${b.bucket}/${statusLogKey(b.runId, instance)}`;
  return `#!/bin/bash
# ycsb-lab ${what} ${b.index} of ${b.role === "dashboard" ? "service" : "run"} ${b.runId}: OS packages, the kit, one ycsb-lab command.
set -euo pipefail
export YCSB_LAB_HOME="\${YCSB_LAB_HOME:-${INSTANCE_HOME}}" AWS_REGION=${q(b.region)} AWS_DEFAULT_REGION=${q(b.region)}
mkdir -p "$YCSB_LAB_HOME/logs"
exec > >(tee -a "$YCSB_LAB_HOME/logs/user-data.log") 2>&1
# Until the kit runs, this script reports for itself: a failed boot is never invisible.
report() {
  printf '{"instance":"${instance}","role":"${b.role}","index":${b.index},"stage":"%s","at":"%s","detail":"%s","logTail":true}' "$1" "$(date -u +%FT%TZ)" "$2" > "$YCSB_LAB_HOME/status.json"
  tail -n 80 "$YCSB_LAB_HOME/logs/user-data.log" | aws s3 cp - ${q(logTail)} >/dev/null 2>&1 || true
  aws s3 cp "$YCSB_LAB_HOME/status.json" ${q(status)} --content-type application/json >/dev/null 2>&1 || true
}
trap 'report failed "user-data failed at line $LINENO"' ERR
if [ -z "\${YCSB_LAB_REHEARSAL:-}" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q && apt-get install -y -q ${packages.join(" ")}
  command -v aws >/dev/null || snap install aws-cli --classic
  id ycsb-lab >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin ycsb-lab
  curl -fsSL --retry 5 -o /tmp/${nodeTar} https://nodejs.org/dist/v${NODE_VERSION}/${nodeTar}
  curl -fsSL --retry 5 https://nodejs.org/dist/v${NODE_VERSION}/SHASUMS256.txt | grep " ${nodeTar}$" > /tmp/node.sha256
  (cd /tmp && sha256sum -c node.sha256) && tar -xJf /tmp/${nodeTar} -C /usr/local --strip-components=1
fi
report booting "fetching the kit"
aws s3 cp ${q(`s3://${b.bucket}/${kitKey(b.kitSha256)}`)} "$YCSB_LAB_HOME/kit.tar.gz" --only-show-errors
echo "${b.kitSha256}  $YCSB_LAB_HOME/kit.tar.gz" | sha256sum -c --quiet
rm -rf "$YCSB_LAB_HOME/kit" && mkdir -p "$YCSB_LAB_HOME/kit" && tar -xzf "$YCSB_LAB_HOME/kit.tar.gz" -C "$YCSB_LAB_HOME/kit"
cat > "$YCSB_LAB_HOME/boot" <<'BOOT'
#!/bin/bash
${bootCommand(b)}
BOOT
chmod 755 "$YCSB_LAB_HOME/boot"
trap - ERR
if [ -n "\${YCSB_LAB_REHEARSAL:-}" ]; then exec "$YCSB_LAB_HOME/boot"; fi
cat > /etc/systemd/system/ycsb-lab.service <<UNIT
[Unit]
Description=ycsb-lab ${instance} of run ${b.runId}
After=network-online.target
Wants=network-online.target
StartLimitIntervalSec=3600
StartLimitBurst=5
[Service]
Environment=YCSB_LAB_HOME=$YCSB_LAB_HOME AWS_REGION=${b.region} AWS_DEFAULT_REGION=${b.region}
ExecStart=$YCSB_LAB_HOME/boot
Restart=on-failure
RestartSec=30
RestartPreventExitStatus=${EXIT_PERMANENT}
LimitNOFILE=100000
LimitNPROC=64000
LimitMEMLOCK=infinity
[Install]
WantedBy=multi-user.target
UNIT
systemctl daemon-reload && systemctl enable --now ycsb-lab.service
`;
}
