import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ClientOutputSchema } from "../../../model/result-document.js";
import { checkAgainst } from "../../../model/result-validation.js";
import { parseYcsbOutput } from "../../../runner/ycsb-output/index.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const FIXTURES = "test/fixtures/ycsb";

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Same as `npx tsx cli/main.ts parse ...`, without npx's start-up cost per spawn.
    execFile(
      process.execPath,
      ["--import", "tsx", "cli/main.ts", "parse", ...args],
      { cwd: ROOT, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe("ycsb-lab parse", () => {
  it("prints the ClientOutput of a fixture with the documented keys (exit 0)", async () => {
    const { code, stdout } = await cli(
      "--stdout",
      `${FIXTURES}/failed/stdout.txt`,
      "--stderr",
      `${FIXTURES}/failed/stderr.txt`,
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(checkAgainst(ClientOutputSchema, out)).toEqual([]);
    expect(Object.keys(out.overall).sort()).toEqual(["runtimeMs", "throughputOpsSec"]);
    expect(Object.keys(out.operations["READ-FAILED"]).sort()).toEqual([
      "avgUs",
      "count",
      "maxUs",
      "minUs",
      "percentilesUs",
      "returns",
    ]);
    expect(Object.keys(out.operations.READ.percentilesUs)).toEqual(["95", "99"]);
    expect(out.operations.READ.returns.ERROR).toBe(out.operations["READ-FAILED"].count);
    const statusLines = readFileSync(join(ROOT, FIXTURES, "failed/stderr.txt"), "utf8")
      .split("\n")
      .filter((l) => l.includes(" sec: ")).length;
    expect(out.statusSeries.elapsedSec).toHaveLength(statusLines);
    expect(out.statusSeries.perOperation.READ.count).toHaveLength(statusLines);
  });

  it("wrong usage exits 2 with the usage text", async () => {
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--stdout FILE is required/);
    expect(none.stderr).toMatch(/Usage: ycsb-lab parse/);
    expect((await cli("--stdout", "x", "--nope")).code).toBe(2);
  });

  it("unreadable, empty and truncated files exit 1 naming the file and the problem", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parse-cli-"));
    const missing = await cli("--stdout", join(dir, "missing.txt"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read --stdout file ".*missing\.txt": ENOENT/);

    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "");
    const e = await cli("--stdout", empty);
    expect(e.code).toBe(1);
    expect(e.stderr).toContain(`${empty}: stdout: is empty`);

    const text = readFileSync(join(ROOT, FIXTURES, "intended/stdout.txt"), "utf8");
    const cut = join(dir, "cut.txt");
    writeFileSync(cut, text.slice(0, text.indexOf("[UPDATE], Return=")));
    const t = await cli("--stdout", cut);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/cut\.txt: stdout line \d+: the summary looks cut short: the last group \[UPDATE\]/);

    const stderrCut = join(dir, "stderr-cut.txt");
    writeFileSync(stderrCut, "2026-11-22 04:33:41:440 1 sec: 1987 operations; 1925 curr");
    const s = await cli("--stdout", `${FIXTURES}/intended/stdout.txt`, "--stderr", stderrCut);
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/stderr-cut\.txt: stderr line 1: the last line has no newline/);
  });

  it("--hdr-dir: a missing folder exits 1; two clients' real logs attach their merged percentiles", async () => {
    const bad = await cli("--stdout", `${FIXTURES}/hdr-v2/client-0/stdout.txt`, "--hdr-dir", `${FIXTURES}/no-such-dir`);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--hdr-dir ".*no-such-dir" is not a readable directory/);

    const run = await cli(
      "--stdout",
      `${FIXTURES}/hdr-v2/client-0/stdout.txt`,
      "--hdr-dir",
      `${FIXTURES}/hdr-v2/client-0`,
      "--hdr-dir",
      `${FIXTURES}/hdr-v2/client-1`,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.operations.READ.count).toBeGreaterThan(0);
    // The merged logs hold both clients' operations: the two clients' summaries, parsed on their own, add up to it.
    const other = parseYcsbOutput(readFileSync(join(ROOT, FIXTURES, "hdr-v2/client-1/stdout.txt"), "utf8"));
    for (const op of ["READ", "UPDATE"]) {
      expect(out.hdrMerged.operations[op].count, op).toBe(out.operations[op].count + other.operations[op]!.count);
    }
  });
});
