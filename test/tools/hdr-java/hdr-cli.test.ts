import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { clientDirs, ROOT, stdoutOperations } from "./hdr-helpers.js";

/** Runs the real CLI in a child process. */
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "cli/main.ts"), "merge", ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const hdrDirArgs = (dirs: string[]) => dirs.flatMap((d) => ["--hdr-dir", d]);

describe("ycsb-lab merge", () => {
  it("prints merged operations whose counts equal the clients' summed [OP], Operations", () => {
    const dirs = clientDirs("v1");
    const r = cli(...hdrDirArgs(dirs), "--percentiles", "50,99,99.9");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.clients).toBe(2);
    expect(out.intervals).toBeGreaterThan(0);
    const [a, b] = dirs.map(stdoutOperations) as [Record<string, number>, Record<string, number>];
    expect(out.operations.READ.count).toBe(a.READ! + b.READ!);
    expect(out.operations.UPDATE.count).toBe(a.UPDATE! + b.UPDATE!);
    expect(Object.keys(out.operations.READ.percentilesUs)).toEqual(["50", "99", "99.9"]);
    expect(out.operations.READ.percentilesUs["99.9"]).toBeGreaterThanOrEqual(out.operations.READ.percentilesUs["99"]);
    expect(out.operations.READ.maxUs).toBeGreaterThanOrEqual(out.operations.READ.percentilesUs["99.9"]);
  });

  it("merges a window: fewer operations than the whole run", () => {
    const dirs = clientDirs("v2");
    const all = JSON.parse(cli(...hdrDirArgs(dirs)).stdout);
    const r = cli(...hdrDirArgs(dirs), "--from", "2", "--to", "6");
    expect(r.code).toBe(0);
    const windowed = JSON.parse(r.stdout);
    expect(windowed.operations.READ.count).toBeGreaterThan(0);
    expect(windowed.operations.READ.count).toBeLessThan(all.operations.READ.count);
    expect(windowed.intervals).toBeLessThan(all.intervals);
  });

  describe("bad input exits 1 naming the file, line and problem", () => {
    let tmp: string;
    const good = () => readFileSync(join(clientDirs("v2")[0]!, "READ.hdr"), "utf8").split("\n");
    const client = (name: string, text: string) => {
      const dir = join(tmp, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "READ.hdr"), text);
      return dir;
    };
    beforeAll(() => {
      tmp = mkdtempSync(join(tmpdir(), "hdr-cli-"));
    });

    it("truncated base64", () => {
      const lines = good();
      const k = lines.findIndex((l) => /^\d/.test(l));
      lines[k] = lines[k]!.slice(0, lines[k]!.lastIndexOf(",") + 30);
      const dir = client("truncated", lines.join("\n"));
      const r = cli("--hdr-dir", dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${join(dir, "READ.hdr")}:${k + 1}: `);
      expect(r.stderr).toMatch(/truncated/);
    });

    it("bad cookie", () => {
      const lines = good();
      const k = lines.findIndex((l) => /^\d/.test(l));
      lines[k] = lines[k]!.replace(",HIST", ",AAAA");
      const r = cli("--hdr-dir", client("cookie", lines.join("\n")));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`READ\\.hdr:${k + 1}: bad cookie 0x000000`));
    });

    it("empty log and a directory without logs", () => {
      const empty = cli("--hdr-dir", client("empty", ""));
      expect(empty.code).toBe(1);
      expect(empty.stderr).toMatch(/READ\.hdr:1: empty log/);
      const none = join(tmp, "none");
      mkdirSync(none);
      const r = cli("--hdr-dir", none);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${none}: no .hdr interval logs`);
      expect(cli("--hdr-dir", join(tmp, "missing")).stderr).toMatch(/cannot read directory \(ENOENT\)/);
    });
  });

  it("bad usage exits 2 with the usage text", () => {
    for (const args of [
      [],
      ["--hdr-dir"],
      ["--hdr-dir", "x", "--from", "abc"],
      ["--hdr-dir", "x", "--percentiles", "0,99"],
      ["--hdr-dir", "x", "--from", "5", "--to", "5"],
      ["--bogus"],
    ]) {
      const r = cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("Usage: ycsb-lab merge");
    }
  });
});
