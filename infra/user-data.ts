import { q } from "../engines/shell.js";
import { type InstanceRole, instanceName } from "../model/instance-status.js";
import { kitKey, runPrefix, statusKey, statusLogKey } from "../model/results-layout.js";
import { S3_HELPER_PY } from "./s3-helper.js";

/**
 * The user-data of every instance (DESIGN.md "One boot path, rehearsed"): the brake first, then the OS packages
 * (Java), Node.js, the kit the stack uploaded, and one `ycsb-lab boot` command run as a systemd service. Everything
 * else (volumes, tuning, the engine, formation, the plan) is that command's. `ycsb-lab rehearse` gives this very
 * text to cloud-init in an OS container of the AMI's distribution (infra/ami.ts): there is no branch for it here.
 *
 * Every step is a command of its own under `set -Eeuo pipefail` (no `a && b`, whose failing left side `set -e`
 * ignores), so any failure reaches the ERR trap: it reports `failed` with the log's tail and, for a run's instance,
 * powers the machine off (its shutdown behaviour is terminate).
 */

/** Node.js for the boot command: the Active LTS line (Node 20 reached its end of life on 2026-04-30), from nodejs.org. */
export const NODE_VERSION = "24.21.0";

/** The one JDK of every instance: Cassandra 5.0 and YCSB support Java 17, HBase 2.5 runs on it with its own flags. */
export const JAVA_PACKAGE = "openjdk-17-jre-headless";

/** What the boot command calls on a data node's machine: nvme-cli finds EBS volumes, mdadm stripes local disks. */
const DATA_NODE_PACKAGES = ["nvme-cli", "mdadm", "xfsprogs"];

/** The service's home on an instance (YCSB_LAB_HOME). */
export const INSTANCE_HOME = "/opt/ycsb-lab";

/** Exit code of a boot that failed for good: systemd must not restart it (a looping fleet costs money). */
export const EXIT_PERMANENT = 78;

/** How long apt waits for the dpkg lock cloud-init or unattended-upgrades may hold at first boot (apt-get(8)). */
export const APT_LOCK_TIMEOUT_SEC = 600;

/** The systemd units user-data writes: the service, the one reporting its failure, the brake's timer and service. */
export const UNITS = {
  service: "ycsb-lab.service",
  /** Run by systemd when it gives up on the service (OnFailure=): reports `failed` with the service's last errors. */
  serviceFailed: "ycsb-lab-failed.service",
  brakeTimer: "ycsb-lab-brake.timer",
  brakeService: "ycsb-lab-brake.service",
};

export interface InstanceBoot {
  role: InstanceRole;
  index: number;
  runId: string;
  region: string;
  bucket: string;
  /** The kit's archive SHA-256: fetched from kits/<sha256>.tar.gz and checked. */
  kitSha256: string;
  /**
   * When a run's instance ends itself whatever happens (the brake): the end of the expiry day (UTC), or `maxHours`
   * after its first boot if that comes first. The dashboard service has none: it serves until destroyed.
   */
  lifetime?: { expiry: string; maxHours?: number };
  /** Keep the instance after its run ends (or fails) until the brake, for inspection. @default false */
  keepAfterRun?: boolean;
}

/** The boot command line, with the kit's CLI: what systemd's ExecStart runs. */
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

/** Whether the machine powers itself off when its work ends or fails (a run's instances, unless kept). */
function endsItself(b: InstanceBoot): boolean {
  return b.role !== "dashboard" && !b.keepAfterRun;
}

/** The reporting part: the S3 helper, the status writer and the ERR trap (before anything that can fail). */
function reporting(b: InstanceBoot): string {
  const instance = instanceName(b.role, b.index);
  const status = `s3://${b.bucket}/${statusKey(b.runId, instance)}`;
  const logTail = `s3://${b.bucket}/${statusLogKey(b.runId, instance)}`;
  const end = endsItself(b) ? "  systemctl poweroff --no-block\n" : "";
  // A command, not a shell function: a failure inside a function would reach the ERR trap naming the function's
  // own line, where the status must name the s3 call that failed (which object, which step).
  return `mkdir -p "$YCSB_LAB_HOME/bin"
cat > "$YCSB_LAB_HOME/bin/s3" <<'PY'
#!/usr/bin/python3
${S3_HELPER_PY}PY
chmod 755 "$YCSB_LAB_HOME/bin/s3"
export PATH="$YCSB_LAB_HOME/bin:$PATH"
# Until the kit runs, this script reports for itself: a failed boot is never invisible. A command of its own, so the
# unit that reports a service systemd gave up on (${UNITS.serviceFailed}) reports the same way.
# report STAGE DETAIL [LOG]: the status, and LOG's last lines (user-data's log unless named) as the log's tail.
cat > "$YCSB_LAB_HOME/bin/report" <<'REPORT'
#!/bin/bash
python3 -c 'import datetime, json, sys; print(json.dumps({"instance": sys.argv[1], "role": sys.argv[2], "index": int(sys.argv[3]), "stage": sys.argv[4], "at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "detail": sys.argv[5][:4000], "logTail": True}))' \\
  ${instance} ${b.role} ${b.index} "$1" "$2" > "$YCSB_LAB_HOME/status.json" || true
tail -n 80 "\${3:-$YCSB_LAB_HOME/logs/user-data.log}" | "$YCSB_LAB_HOME/bin/s3" put - ${q(logTail)} text/plain || true
"$YCSB_LAB_HOME/bin/s3" put "$YCSB_LAB_HOME/status.json" ${q(status)} application/json || true
REPORT
chmod 755 "$YCSB_LAB_HOME/bin/report"
failed() {
  trap - ERR
  report failed "user-data failed at line $1: $2"
${end}  exit 1
}
trap 'failed "$LINENO" "$BASH_COMMAND"' ERR
`;
}

/**
 * The brake, armed before any download: a persistent timer that powers the machine off at the end of the expiry day
 * or maxHours after this first boot, whichever comes first (systemd.timer(5) OnCalendar=, Persistent=).
 */
function brake(b: InstanceBoot): string {
  if (!b.lifetime) return "";
  const hours = b.lifetime.maxHours;
  const byHours =
    hours === undefined
      ? ""
      : `by_hours=$(( $(date +%s) + ${Math.ceil(hours * 3600)} ))
if [ "$by_hours" -lt "$brake_at" ]; then brake_at=$by_hours; fi
`;
  return `# The brake, before any download: this machine powers off (terminates) at its lifetime's end whatever happens.
brake_at=$(date -u -d ${q(`${b.lifetime.expiry} 23:59:59`)} +%s)
${byHours}if [ "$brake_at" -le "$(date +%s)" ]; then failed "$LINENO" "the run's lifetime ended at $(date -u -d "@$brake_at" +%FT%TZ)"; fi
cat > /etc/systemd/system/${UNITS.brakeService} <<UNIT
[Unit]
Description=ycsb-lab brake: the run's lifetime is over
[Service]
Type=oneshot
ExecStart=/usr/bin/systemctl poweroff --no-block
UNIT
cat > /etc/systemd/system/${UNITS.brakeTimer} <<UNIT
[Unit]
Description=ycsb-lab brake at $(date -u -d "@$brake_at" '+%F %T UTC')
[Timer]
OnCalendar=$(date -u -d "@$brake_at" '+%F %T UTC')
Persistent=true
AccuracySec=1min
[Install]
WantedBy=timers.target
UNIT
systemctl daemon-reload
systemctl enable --now ${UNITS.brakeTimer}
report booting "brake armed: powers off at $(date -u -d "@$brake_at" +%FT%TZ)"
`;
}

/** apt, the engine's user, Node.js from nodejs.org checked against its published list, the kit checked by its hash. */
function install(b: InstanceBoot): string {
  const nodeTar = `node-v${NODE_VERSION}-linux-x64.tar.xz`;
  // The dashboard service runs no YCSB and no engine: Node.js alone.
  const packages = [
    "ca-certificates",
    "xz-utils",
    ...(b.role === "dashboard" ? [] : [JAVA_PACKAGE]),
    ...(b.role === "data" ? DATA_NODE_PACKAGES : []),
  ];
  const apt = `apt-get -q -o DPkg::Lock::Timeout=${APT_LOCK_TIMEOUT_SEC}`;
  return `report booting "installing OS packages"
export DEBIAN_FRONTEND=noninteractive
# --error-on=any: an unreachable mirror is an error (plain \`apt-get update\` warns and exits 0, apt-get(8)).
${apt} --error-on=any update
${apt} install -y --no-install-recommends ${packages.join(" ")}
if ! id ycsb-lab >/dev/null 2>&1; then useradd --system --no-create-home --shell /usr/sbin/nologin ycsb-lab; fi
report booting "installing Node.js ${NODE_VERSION}"
s3 fetch https://nodejs.org/dist/v${NODE_VERSION}/${nodeTar} /tmp/${nodeTar}
s3 fetch https://nodejs.org/dist/v${NODE_VERSION}/SHASUMS256.txt /tmp/node-sums.txt
grep " ${nodeTar}$" /tmp/node-sums.txt > /tmp/node.sha256
cd /tmp
sha256sum -c node.sha256
cd /
tar -xJf /tmp/${nodeTar} -C /usr/local --strip-components=1
report booting "fetching the kit"
s3 get ${q(`s3://${b.bucket}/${kitKey(b.kitSha256)}`)} "$YCSB_LAB_HOME/kit.tar.gz"
sha256sum -c --quiet <<< "${b.kitSha256}  $YCSB_LAB_HOME/kit.tar.gz"
rm -rf "$YCSB_LAB_HOME/kit"
mkdir -p "$YCSB_LAB_HOME/kit"
tar -xzf "$YCSB_LAB_HOME/kit.tar.gz" -C "$YCSB_LAB_HOME/kit"
`;
}

/**
 * What ends the machine after a run of the boot command, as ExecStopPost sees it (systemd.exec(5): EXIT_CODE,
 * EXIT_STATUS): done (0) or failed for good (78) powers off; anything else is restarted by Restart=on-failure.
 * Not SuccessAction=/FailureAction=: systemd 252 (Debian 12) takes those when a restarting unit's process is killed,
 * which powered off a client that systemd was about to restart (found in the OS rehearsal).
 */
const AFTER_BOOT = `#!/bin/bash
case "\${EXIT_CODE:-}:\${EXIT_STATUS:-}" in
  exited:0|exited:${EXIT_PERMANENT}) systemctl poweroff --no-block ;;
esac
`;

/**
 * What ${UNITS.serviceFailed} runs when systemd gives up on the service (OnFailure=, systemd.unit(5)): the status
 * `failed` with the command's last error lines, and its journal as the log's tail. systemd 252 (Debian 12) starts
 * OnFailure= units only when the unit enters the failed state, not on each automatic restart; a unit that exited
 * with 78 failed for good in the kit's own words, which already reported it, so nothing is said over them.
 */
const SERVICE_FAILED = `#!/bin/bash
unit=${UNITS.service}
state=$(systemctl show -p ActiveState --value "$unit")
code=$(systemctl show -p ExecMainStatus --value "$unit")
if [ "$state" != failed ] || [ "$code" = ${EXIT_PERMANENT} ]; then exit 0; fi
restarts=$(systemctl show -p NRestarts --value "$unit")
log="$YCSB_LAB_HOME/logs/service.log"
journalctl -u "$unit" -b --no-pager -o cat > "$log" 2>&1 || true
# The command's own error lines, each once (a unit restarted five times prints the same error five times).
errors=$(grep -iE 'error|exception|fatal|denied|refused' "$log" | awk '!seen[$0]++' | tail -n 3 | paste -sd ' ' - || true)
"$YCSB_LAB_HOME/bin/report" failed "$unit failed for good after \${restarts:-0} restart(s) (exit status $code): \${errors:-see the log tail}" "$log"
`;

/**
 * The service: restarted on failure (the boot resumes where it was), never after a permanent one (exit 78), every
 * process it started killed with it (KillMode=control-group: a restarted client never measures beside its previous
 * YCSB), and the machine powered off when the run's work is done, has failed for good, or keeps failing (the start
 * limit: five starts in an hour).
 */
function service(b: InstanceBoot): string {
  const instance = instanceName(b.role, b.index);
  const ends = endsItself(b);
  const afterBoot = ends
    ? `cat > "$YCSB_LAB_HOME/after-boot" <<'AFTER'\n${AFTER_BOOT}AFTER\nchmod 755 "$YCSB_LAB_HOME/after-boot"\n`
    : "";
  const environment = `Environment=YCSB_LAB_HOME=$YCSB_LAB_HOME AWS_REGION=${b.region} AWS_DEFAULT_REGION=${b.region}`;
  return `cat > "$YCSB_LAB_HOME/boot" <<'BOOT'
#!/bin/bash
${bootCommand(b)}
BOOT
chmod 755 "$YCSB_LAB_HOME/boot"
${afterBoot}cat > "$YCSB_LAB_HOME/bin/service-failed" <<'FAILED'
${SERVICE_FAILED}FAILED
chmod 755 "$YCSB_LAB_HOME/bin/service-failed"
cat > /etc/systemd/system/${UNITS.serviceFailed} <<UNIT
[Unit]
Description=ycsb-lab: report that ${UNITS.service} failed for good
# Ordered before shutdown, so the start limit's power-off waits for the report.
DefaultDependencies=no
Before=shutdown.target
[Service]
Type=oneshot
${environment}
ExecStart=$YCSB_LAB_HOME/bin/service-failed
TimeoutStartSec=60
UNIT
cat > /etc/systemd/system/${UNITS.service} <<UNIT
[Unit]
Description=ycsb-lab ${instance} of ${b.role === "dashboard" ? "service" : "run"} ${b.runId}
After=network-online.target
Wants=network-online.target
OnFailure=${UNITS.serviceFailed}
StartLimitIntervalSec=3600
StartLimitBurst=5
${ends ? "StartLimitAction=poweroff\n" : ""}[Service]
${environment}
ExecStart=$YCSB_LAB_HOME/boot
${ends ? "ExecStopPost=$YCSB_LAB_HOME/after-boot\n" : ""}Restart=on-failure
RestartSec=10
RestartPreventExitStatus=${EXIT_PERMANENT}
KillMode=control-group
TimeoutStopSec=120
LimitNOFILE=100000
LimitNPROC=64000
LimitMEMLOCK=infinity
[Install]
WantedBy=multi-user.target
UNIT
systemctl daemon-reload
report booting "starting ${UNITS.service}"
systemctl enable --now ${UNITS.service}
`;
}

export function instanceUserData(b: InstanceBoot): string {
  const what = b.role === "data" ? "data node" : b.role === "client" ? "client" : "dashboard service";
  return `#!/bin/bash
# ycsb-lab ${what} ${b.index} of ${b.role === "dashboard" ? "service" : "run"} ${b.runId}: ${b.lifetime ? "the brake, " : ""}OS packages, Node.js, the kit, one ycsb-lab command.
set -Eeuo pipefail
umask 022
export YCSB_LAB_HOME=${INSTANCE_HOME} AWS_REGION=${q(b.region)} AWS_DEFAULT_REGION=${q(b.region)}
mkdir -p "$YCSB_LAB_HOME/logs"
exec > >(tee -a "$YCSB_LAB_HOME/logs/user-data.log") 2>&1
${reporting(b)}${brake(b)}${install(b)}${service(b)}`;
}
