import type { SeamFile } from "./machine.js";

/**
 * Everything a rehearsal puts on an instance's disk before its first boot, in one place (DESIGN.md "One boot path,
 * rehearsed": what cannot be real here is swapped at one seam, and said). The user-data itself is the stack's, byte
 * for byte; cloud-init reads it from a NoCloud seed as it reads EC2's metadata service on AWS.
 */
export interface SeamInput {
  /** EC2's instance id stands for the run and the instance (cloud-init runs user-data once per instance id). */
  instanceId: string;
  hostname: string;
  /** The loopback address standing for the instance's private IP: its host name resolves to it (EC2: VPC DNS). */
  address: string;
  userData: string;
  /** /etc/hosts lines pointing AWS's endpoints and the vendors' hosts at the rehearsal's front. */
  hosts: string;
  /** The emulator's credentials for the instance's role, where EC2 gives the instance profile's through IMDS. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The boot command's declared swaps (runner/boot/environment.ts), as a drop-in of the instance's service. */
  bootEnvironment: Record<string, string>;
}

/** One line of systemd's Environment=, quoted (systemd.exec(5): "quotes", and % doubled against specifiers). */
export function environmentLine(key: string, value: string): string {
  return `Environment="${key}=${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%")}"`;
}

export function seamFiles(i: SeamInput): SeamFile[] {
  return [
    {
      path: "/var/lib/cloud/seed/nocloud/meta-data",
      content: `instance-id: ${i.instanceId}\nlocal-hostname: ${i.hostname}\n`,
    },
    { path: "/var/lib/cloud/seed/nocloud/user-data", content: i.userData, mode: 0o600 },
    {
      path: "/etc/hosts",
      content: `127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n${i.address} ${i.hostname}\n# ycsb-lab rehearsal: AWS and vendor hosts answered by the rehearsal's front\n${i.hosts}\n`,
    },
    {
      path: "/root/.aws/credentials",
      content: `# ycsb-lab rehearsal: the emulator's user standing for the instance's role (EC2: the instance profile, through IMDS)\n[default]\naws_access_key_id = ${i.credentials.accessKeyId}\naws_secret_access_key = ${i.credentials.secretAccessKey}\n`,
      mode: 0o600,
    },
    {
      path: "/etc/systemd/system/ycsb-lab.service.d/rehearsal.conf",
      content: `# ycsb-lab rehearsal: the boot command's declared swaps (each named in the instance's status)\n[Service]\n${Object.entries(
        i.bootEnvironment,
      )
        .map(([k, v]) => environmentLine(k, v))
        .join("\n")}\n`,
    },
  ];
}
