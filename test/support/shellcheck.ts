import { execFileSync } from "node:child_process";

/**
 * Runs Debian's shellcheck on a file: it exits non-zero on any finding and prints it. Not an npm package (the npm
 * `shellcheck` wrapper downloads a binary at run time), so a machine without it gets the command that installs it.
 */
export function shellcheck(file: string): void {
  try {
    execFileSync("shellcheck", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error(
      "shellcheck is not installed: `apt-get install shellcheck` (Debian's package; `bash scripts/setup-test-env.sh` " +
        "installs it with everything else `npm test` needs)",
    );
  }
  execFileSync("shellcheck", ["--severity=style", file], { encoding: "utf8" });
}
