import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { shellcheck } from "../support/shellcheck.js";

/**
 * The setup scripts try Maven offline first and quietly fall back to going online. Maven prints its errors on
 * stdout, so the quiet try needs `>/dev/null 2>&1`; `>&2 2>/dev/null` sends stdout to the terminal's stderr first
 * and only then silences stderr, which printed every offline miss as a false `[ERROR]` line under `npm test`.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));

/** A `mvn` that fails offline (`-o`) with Maven's error text on stdout and succeeds online. */
const FAKE_MVN = `#!/usr/bin/env bash
for a in "$@"; do
  if [[ "$a" == -o ]]; then echo "[ERROR] Failed to execute goal: offline and not in the local repository"; exit 1; fi
done
echo "online: $*" >&2
`;

describe("scripts/build-bindings.sh", () => {
  it("prints no Maven [ERROR] when the offline try fails and the online one succeeds", () => {
    const tree = mkdtempSync(join(tmpdir(), "ycsb-lab-bindings-"));
    mkdirSync(join(tree, "scripts"));
    copyFileSync(join(root, "scripts/build-bindings.sh"), join(tree, "scripts/build-bindings.sh"));
    for (const dir of ["runner/bindings/common", "runner/bindings/demo"])
      mkdirSync(join(tree, dir), { recursive: true });
    for (const pom of ["pom.xml", "common/pom.xml", "demo/pom.xml"])
      writeFileSync(join(tree, "runner/bindings", pom), "<project/>");
    const bin = join(tree, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "mvn"), FAKE_MVN);
    chmodSync(join(bin, "mvn"), 0o755);
    const r = spawnSync("bash", [join(tree, "scripts/build-bindings.sh")], {
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(r.status, r.stderr).toBe(0);
    // The online build ran (its own output stays visible) and the offline miss left no trace.
    expect(r.stderr).toContain("online: -B -q package");
    expect(r.stderr).not.toContain("[ERROR]");
    expect(r.stdout.trim()).toBe(join(tree, "runner/bindings/demo/target/classpath"));
  });
});

describe("every shell script of the repository", () => {
  const scripts = [
    ".ci/run",
    ...readdirSync(join(root, "scripts"))
      .map((f) => `scripts/${f}`)
      .filter((f) => statSync(join(root, f)).isFile() && (f.endsWith(".sh") || !f.includes("."))),
    "tools/hdr-java/build.sh",
  ];
  it.each(scripts)("%s silences a command with >/dev/null 2>&1, never >&2 2>/dev/null", (file) => {
    const text = readFileSync(join(root, file), "utf8");
    expect(text.split("\n").filter((line) => /(^|\s)1?>&2\s+2>\s*\/dev\/null/.test(line))).toEqual([]);
  });
});

describe("a tool the unit tests need beyond npm ci", () => {
  it("shellcheck missing: the failure names the command that installs it", () => {
    const nowhere = join(mkdtempSync(join(tmpdir(), "ycsb-lab-no-shellcheck-")), "shellcheck");
    expect(() => shellcheck(join(root, ".ci/run"), nowhere)).toThrow(/bash scripts\/setup-shellcheck\.sh/);
  });
});
