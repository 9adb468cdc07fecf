import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Machine } from "../../rehearse/machine.js";
import type { OsImage } from "../../rehearse/os-image.js";

const dir = mkdtempSync(join(tmpdir(), "kept-folder-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function place(path: string): void {
  mkdirSync(dirname(join(dir, "upper", path)), { recursive: true });
  writeFileSync(join(dir, "upper", path), "x");
}

describe("a failed rehearsal's instance folder, kept for inspection", () => {
  it("keeps what the instance logged and was given, not the software it installed", () => {
    const evidence = [
      "/var/log/cloud-init-output.log",
      "/var/lib/cloud/instance/user-data.txt",
      "/etc/systemd/system/ycsb-lab-brake.timer",
      "/root/drill-lock",
      "/home/ycsb/.aws/config",
      "/opt/ycsb-lab/kit.tar.gz",
    ];
    const software = ["/usr/local/bin/node", "/usr/lib/jvm/java-17/bin/java", "/var/cache/apt/archives/jdk.deb"];
    for (const p of [...evidence, ...software]) place(p);
    mkdirSync(join(dir, "disks"), { recursive: true });
    writeFileSync(join(dir, "disks", "nvme1n1.img"), "data");
    const machine = new Machine({
      name: "client-0",
      dir,
      image: {} as OsImage,
      machineName: "kept-folder-client-0",
      files: [],
      readOnly: [],
      disks: [],
    });
    machine.dropSoftware();
    for (const p of evidence) expect(existsSync(machine.path(p)), p).toBe(true);
    for (const p of software) expect(existsSync(machine.path(p)), p).toBe(false);
    expect(existsSync(join(dir, "disks", "nvme1n1.img"))).toBe(true);
  });
});
