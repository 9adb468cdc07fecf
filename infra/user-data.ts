import { ENGINE_KITS } from "../engines/kits.js";
import type { NodeContext } from "../engines/node-context.js";
import { osTuningSection } from "../engines/os-tuning.js";
import { basePackages } from "../engines/common-install.js";
import { q, section, writeFile } from "../engines/shell.js";
import { mountVolumesScript, type VolumePlan } from "./volumes.js";

const HEADER = [
  "#!/bin/bash",
  "set -euo pipefail",
  // cloud-init keeps its own log too; this one holds only our steps.
  "exec > >(tee -a /var/log/ycsb-lab-boot.log) 2>&1",
].join("\n");

/** The whole boot script of a data node: install, volumes, OS tuning, config, cluster formation (leader only). */
export function dataNodeUserData(ctx: NodeContext, volumes: VolumePlan): string {
  const kit = ENGINE_KITS[ctx.engine];
  const parts = [
    HEADER,
    `# ycsb-lab data node ${ctx.index} of ${ctx.nodeIps.length}: ${ctx.engine} ${ctx.version}, preset ${ctx.preset}, run ${ctx.runId}`,
    `# roles: ${kit.roles(ctx).join(", ")}`,
    section("install", kit.install(ctx)),
    section("volumes", mountVolumesScript(volumes)),
    section("os tuning (seed 002 appendix C)", osTuningSection(ctx.engine)),
    section("configure and start", kit.configure(ctx)),
  ];
  if (ctx.index === 0) parts.push(section("form the cluster (leader)", kit.formCluster(ctx)));
  parts.push('echo "ycsb-lab: boot complete"');
  return `${parts.join("\n")}\n`;
}

/** Node.js for the runner, from nodejs.org with its published SHA-256 (Ubuntu 24.04 ships Node 18). */
export const NODE_VERSION = "20.20.2";

export interface ClientBootstrap {
  index: number;
  clients: number;
  runId: string;
  region: string;
  bucketName: string;
  planKey: string;
  resultsPrefix: string;
  /** Where the runner comes from: a git repository and ref of ycsb-lab. */
  runner: { repository: string; ref: string };
}

/** The runner command each client runs (the runner itself is runner/'s; this is its documented CLI). */
export function runnerCommand(b: ClientBootstrap): string[] {
  return [
    "/usr/local/bin/node",
    "/opt/ycsb-lab/bin/ycsb-lab.js",
    "run",
    "--plan",
    `s3://${b.bucketName}/${b.planKey}`,
    "--client-index",
    String(b.index),
    "--clients",
    String(b.clients),
    "--results",
    `s3://${b.bucketName}/${b.resultsPrefix}`,
  ];
}

export function clientUserData(b: ClientBootstrap): string {
  const nodeTar = `node-v${NODE_VERSION}-linux-x64.tar.xz`;
  const unit = `[Unit]
Description=ycsb-lab runner, client ${b.index} of ${b.clients}
After=network-online.target
Wants=network-online.target
[Service]
WorkingDirectory=/opt/ycsb-lab
Environment=AWS_REGION=${b.region}
ExecStart=${runnerCommand(b).join(" ")}
# The runner spools locally and resumes after a restart (DESIGN.md reliability rules).
Restart=on-failure
RestartSec=30
LimitNOFILE=100000
[Install]
WantedBy=multi-user.target
`;
  return `${[
    HEADER,
    `# ycsb-lab client ${b.index} of ${b.clients}, run ${b.runId}`,
    section("packages", [basePackages("openjdk-17-jdk-headless"), "apt-get install -y -q git maven xz-utils"].join("\n")),
    section(
      "node.js",
      [
        `curl -fsSL --retry 5 -o /tmp/${nodeTar} https://nodejs.org/dist/v${NODE_VERSION}/${nodeTar}`,
        `curl -fsSL --retry 5 https://nodejs.org/dist/v${NODE_VERSION}/SHASUMS256.txt | grep " ${nodeTar}$" > /tmp/node.sha256`,
        "(cd /tmp && sha256sum -c node.sha256)",
        `tar -xJf /tmp/${nodeTar} -C /usr/local --strip-components=1`,
      ].join("\n"),
    ),
    section("os tuning (seed 002 appendix C)", osTuningSection()),
    section(
      "ycsb-lab",
      [
        `[ -d /opt/ycsb-lab/.git ] || git clone --depth 1 --branch ${q(b.runner.ref)} ${q(b.runner.repository)} /opt/ycsb-lab`,
        "cd /opt/ycsb-lab",
        "npm ci --no-audit --no-fund",
        "bash scripts/fetch-ycsb.sh",
      ].join("\n"),
    ),
    section("runner service", [writeFile("/etc/systemd/system/ycsb-lab-runner.service", unit), "systemctl daemon-reload", "systemctl enable --now ycsb-lab-runner.service"].join("\n")),
    'echo "ycsb-lab: boot complete"',
  ].join("\n")}\n`;
}
