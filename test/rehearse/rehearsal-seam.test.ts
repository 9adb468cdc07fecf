import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { DEBIAN_12 } from "../../infra/ami.js";
import type { StackInstance } from "../../rehearse/evaluate.js";
import { instanceDisks } from "../../rehearse/fleet.js";
import { awsHostNames } from "../../rehearse/front.js";
import { CLOUD_INIT_CONFIG, imageFiles, imageRecipe, MASKED_UNITS } from "../../rehearse/os-image.js";
import { pathStyle } from "../../rehearse/recording-proxy.js";
import { environmentLine, seamFiles } from "../../rehearse/seam.js";

// The pure parts of the OS-container rehearsal (DESIGN.md "One boot path, rehearsed"); the machines themselves boot in
// test/rehearse/rehearse-*.test.ts.
describe("the image a rehearsed instance boots", () => {
  it("reads its NoCloud seed only and never probes the metadata address; configures no network", () => {
    const config = parseYaml(CLOUD_INIT_CONFIG) as { datasource_list: string[]; network: { config: string } };
    expect(config.datasource_list).toEqual(["NoCloud", "None"]);
    expect(config.network).toEqual({ config: "disabled" });
  });
  it("masks every unit that would call out of this machine (time servers, apt's timers, DHCP)", () => {
    for (const unit of [
      "systemd-timesyncd.service",
      "apt-daily.timer",
      "apt-daily-upgrade.timer",
      "systemd-networkd.service",
      "systemd-resolved.service",
    ])
      expect(MASKED_UNITS).toContain(unit);
  });
  it("trusts the rehearsal's CA, and a new CA makes a new image", () => {
    expect(imageFiles("CERT").find((f) => f.path.startsWith("/usr/local/share/ca-certificates/"))?.content).toBe(
      "CERT",
    );
    expect(imageRecipe(DEBIAN_12, "http://deb.debian.org/debian", "A")).not.toBe(
      imageRecipe(DEBIAN_12, "http://deb.debian.org/debian", "B"),
    );
  });
});

describe("the seam: what a rehearsal puts on an instance before it boots", () => {
  const files = seamFiles({
    instanceId: "i-abc",
    hostname: "node-0-abc",
    address: "127.0.12.1",
    userData: "#!/bin/bash\necho exact\n",
    hosts: "127.0.12.254 s3.us-east-1.amazonaws.com",
    credentials: { accessKeyId: "AKIA", secretAccessKey: "secret" },
    bootEnvironment: { YCSB_LAB_REHEARSAL: "1", ODD: 'a "quoted" 100% \\ value' },
  });
  const file = (p: string) => files.find((f) => f.path === p)!;
  it("gives cloud-init the user-data byte for byte", () => {
    expect(file("/var/lib/cloud/seed/nocloud/user-data").content).toBe("#!/bin/bash\necho exact\n");
    expect(file("/var/lib/cloud/seed/nocloud/meta-data").content).toMatch(/^instance-id: i-abc$/m);
  });
  it("points AWS's and the vendors' hosts at the front, keeps localhost, and keeps credentials private", () => {
    expect(file("/etc/hosts").content).toMatch(/^127\.0\.0\.1 localhost$/m);
    expect(file("/etc/hosts").content).toMatch(/^127\.0\.12\.1 node-0-abc$/m);
    expect(file("/etc/hosts").content).toMatch(/^127\.0\.12\.254 s3\.us-east-1\.amazonaws\.com$/m);
    expect(file("/root/.aws/credentials").mode).toBe(0o600);
  });
  it("quotes the service's environment as systemd.exec(5) reads it", () => {
    expect(environmentLine("ODD", 'a "quoted" 100% \\ value')).toBe(
      'Environment="ODD=a \\"quoted\\" 100%% \\\\ value"',
    );
    expect(file("/etc/systemd/system/ycsb-lab.service.d/rehearsal.conf").content).toMatch(
      /^\[Service\]\nEnvironment="YCSB_LAB_REHEARSAL=1"$/m,
    );
  });
});

describe("an instance's disks as Nitro names them", () => {
  const spec = (o: Partial<StackInstance>): StackInstance => ({
    role: "data",
    index: 0,
    name: "x-node-0",
    privateIp: "10.0.0.1",
    instanceType: "m6i.large",
    userData: "",
    roleName: "r",
    ebs: [],
    ...o,
  });
  it("EBS volumes in device-name order as nvme1n1, nvme2n1, each with the attachment name the boot asks for", () => {
    const d = instanceDisks(
      spec({
        ebs: [
          { deviceName: "/dev/sdg", sizeGiB: 100 },
          { deviceName: "/dev/sdf", sizeGiB: 2 },
        ],
      }),
      { data: { kind: "ebs", device: "sdf" }, dataDir: "/data", log: { device: "sdg" }, logDir: "/log" },
    );
    expect(d.blockDevices).toEqual(["sdf=/dev/nvme1n1", "sdg=/dev/nvme2n1"]);
    expect(d.disks).toEqual([
      { device: "/dev/nvme1n1", sizeMiB: 2048 },
      { device: "/dev/nvme2n1", sizeMiB: 8192 },
    ]);
  });
  it("an instance-store node gets its local disk after its EBS volumes; several local disks are one here, and said", () => {
    const d = instanceDisks(spec({ instanceType: "m1.xlarge", ebs: [{ deviceName: "/dev/sdg", sizeGiB: 10 }] }), {
      data: { kind: "instance-store" },
      dataDir: "/data",
      log: { device: "sdg" },
      logDir: "/log",
    });
    expect(d.instanceStore).toEqual(["/dev/nvme2n1"]);
    expect(d.notes.join(" ")).toMatch(/4 instance-store disks; the rehearsal gives one/);
    expect(
      instanceDisks(spec({ role: "client" }), { data: { kind: "instance-store" }, dataDir: "/data" }).disks,
    ).toEqual([]);
  });
});

describe("AWS as the instances address it", () => {
  it("names every endpoint a rehearsed instance calls, virtual-hosted buckets included", () => {
    expect(awsHostNames("eu-west-1", ["b1"])).toEqual(
      expect.arrayContaining([
        "b1.s3.eu-west-1.amazonaws.com",
        "s3.eu-west-1.amazonaws.com",
        "ssm.eu-west-1.amazonaws.com",
        "secretsmanager.eu-west-1.amazonaws.com",
      ]),
    );
  });
  it("the audit reads a virtual-hosted request's bucket from its Host header", () => {
    expect(pathStyle("b1.s3.us-east-1.amazonaws.com", "/runs/r/plan.json")).toBe("/b1/runs/r/plan.json");
    expect(pathStyle("b1.s3.amazonaws.com:443", "/k")).toBe("/b1/k");
    expect(pathStyle("127.0.0.1:4566", "/b1/k")).toBe("/b1/k");
    expect(pathStyle("ssm.us-east-1.amazonaws.com", "/")).toBe("/");
  });
});
