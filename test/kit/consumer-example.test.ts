import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { homedir, tmpdir } from "node:os";
import { basename, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildKit, type Kit } from "../../kit/build.js";
import { pinFileName, pinPath, readDriverPins } from "../../kit/driver-pins.js";
import { type BuiltPackage, buildCliPackage, buildLibraryPackage } from "../../kit/packages.js";

/**
 * examples/infra-repo as a stranger gets it: its files copied into an empty folder beside the `npm pack` tarballs of
 * `ycsb-lab` and `@ycsb-lab/cli`, installed from them (other packages from the npm cache `npm ci` warmed), then
 * `ycsb-lab kit build` of the installed package, with HOME elsewhere and the drivers from a Maven repository served
 * on loopback (this machine's ~/.m2, standing in for Maven Central), and the program evaluated under Pulumi's mocks
 * with that kit. Nothing of this checkout is on the consumer's path; the checkout builds its own kit to compare.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const example = join(root, "examples", "infra-repo");
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-consumer-example-"));
const consumer = join(work, "infra");
const home = join(work, "home");
const mavenLocal = join(homedir(), ".m2", "repository");
const env = {
  ...process.env,
  HOME: home,
  XDG_CACHE_HOME: "",
  YCSB_LAB_KIT_ROOT: "",
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};
const run = (cmd: string, args: string[], cwd = consumer) =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: "pipe" });

/** A read-only Maven 2 repository on 127.0.0.1; `tampered` paths answer other bytes. */
const served: string[] = [];
const tampered = new Set<string>();
let maven: Server;
let mavenUrl = "";

let library: BuiltPackage;
let cli: BuiltPackage;
let kit: Kit;
let checkoutKit: Kit;

function startMaven(): Promise<void> {
  maven = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).slice(1);
    const file = join(mavenLocal, path);
    if (
      req.method !== "GET" ||
      path.startsWith("..") ||
      !file.startsWith(mavenLocal + sep) ||
      !existsSync(file) ||
      !statSync(file).isFile()
    ) {
      res.writeHead(404).end();
      return;
    }
    served.push(path);
    if (tampered.has(path)) {
      res.writeHead(200, { "content-type": "application/java-archive" }).end("not the pinned jar");
      return;
    }
    res.writeHead(200, { "content-type": "application/java-archive" });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    maven.listen(0, "127.0.0.1", () => {
      mavenUrl = `http://127.0.0.1:${(maven.address() as { port: number }).port}/`;
      resolve();
    }),
  );
}

/** The installed package's `kit build`; asynchronous, since the Maven repository answers from this process. */
function packageKitBuild(
  engine: string,
  out: string,
  cache: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const args = ["kit", "build", "--engine", engine, "--json", "--out", out, "--maven-repo", mavenUrl, "--cache", cache];
  const child = spawn(join(consumer, "node_modules", ".bin", "ycsb-lab"), args, {
    cwd: consumer,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const tarList = (archive: string) => run("tar", ["-tzf", archive], work).split("\n").filter(Boolean).sort();

beforeAll(async () => {
  mkdirSync(home);
  await startMaven();
  const packed = join(work, "packed");
  mkdirSync(packed);
  library = buildLibraryPackage(packed);
  cli = await buildCliPackage(packed);
  // The example as committed, without anything a build or an earlier check left in the checkout's copy.
  cpSync(example, consumer, {
    recursive: true,
    filter: (src) => !/(node_modules|[/\\]bin|\.cache|kit\.json|mock-resources\.json)$/.test(src),
  });
  for (const p of [library, cli]) cpSync(p.tarball, join(consumer, basename(p.tarball)));
  run("npm", ["install", "--prefer-offline", "--no-package-lock", "--ignore-scripts"]);
  checkoutKit = await buildKit("cassandra", { outDir: join(work, "checkout-kits") });
}, 900_000);

afterAll(async () => {
  await new Promise((r) => maven?.close(r));
  rmSync(work, { recursive: true, force: true });
});

describe("examples/infra-repo installs from the packed tarballs", () => {
  it("names the tarballs npm pack makes and the Pulumi and TypeScript versions this repository tests with", () => {
    const pkg = JSON.parse(readFileSync(join(example, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const deps = { ...pkg.dependencies, ...pkg.devDependencies };
    expect(deps["ycsb-lab"]).toBe(`file:${basename(library.tarball)}`);
    expect(deps["@ycsb-lab/cli"]).toBe(`file:${basename(cli.tarball)}`);
    for (const name of ["@pulumi/pulumi", "@pulumi/aws", "typescript", "@types/node"]) {
      const tested = (
        JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }
      ).version;
      expect(`${name}@${deps[name]}`).toBe(`${name}@${tested}`);
    }
    // The deploying principal's policy comes from the installed package too (docs/infrastructure.md, step 3).
    const policy = JSON.parse(
      run(join(consumer, "node_modules", ".bin", "ycsb-lab"), [
        "plan",
        "--scenario",
        "quickstart",
        "--deployer-policy",
      ]),
    ) as { Statement: unknown[] };
    expect(policy.Statement.length).toBeGreaterThan(0);
    // Installed from the tarballs, not linked to this checkout.
    for (const name of ["ycsb-lab", "@ycsb-lab/cli"])
      expect(statSync(join(consumer, "node_modules", name)).isSymbolicLink()).toBe(false);
  });
});

describe("`ycsb-lab kit build` of the installed @ycsb-lab/cli", () => {
  beforeAll(async () => {
    const r = await packageKitBuild("cassandra", join(consumer, ".cache", "kits"), join(work, "maven-cache"));
    expect(r.status, r.stderr).toBe(0);
    kit = JSON.parse(r.stdout) as Kit;
  }, 300_000);

  it("builds a complete Cassandra kit: the CLI, YCSB core, HdrHistogram, our binding and every pinned driver", () => {
    const pins = readDriverPins().modules.cassandra!;
    expect(kit.path.startsWith(join(consumer, ".cache", "kits"))).toBe(true);
    const files = tarList(kit.path);
    expect(files).toContain("bin/ycsb-lab.mjs");
    expect(files).toContain("java/ycsb/core/core-0.17.0.jar");
    expect(files).toContain("java/ycsb/hdr-2.1.12/HdrHistogram-2.1.12.jar");
    expect(files.some((f) => /^java\/bindings\/cassandra\/ycsb-lab-binding-cassandra-.*\.jar$/.test(f))).toBe(true);
    expect(pins.map((p) => `java/bindings/cassandra/${pinFileName(p)}`).filter((f) => !files.includes(f))).toEqual([]);
    const manifest = JSON.parse(run("tar", ["-xzOf", kit.path, "kit.json"], work)) as {
      bindings: string[];
      version: string;
    };
    expect(manifest).toMatchObject({ bindings: ["cassandra"], version: kit.version });
    // Every driver came over the loopback repository, none from the checkout or this machine's Maven.
    expect(pins.map(pinPath).filter((p) => !served.includes(p))).toEqual([]);
  });

  it("is byte for byte the kit `ycsb-lab kit build` makes in this checkout", () => {
    expect(tarList(kit.path)).toEqual(tarList(checkoutKit.path));
    expect({ sha256: kit.sha256, bytes: kit.bytes, files: kit.files, version: kit.version }).toEqual({
      sha256: checkoutKit.sha256,
      bytes: checkoutKit.bytes,
      files: checkoutKit.files,
      version: checkoutKit.version,
    });
  });

  it("refuses a driver whose bytes are not the pinned ones, and writes no kit", async () => {
    const pin = readDriverPins().modules.mongodb![0]!;
    tampered.add(pinPath(pin));
    const out = join(work, "tampered-kits");
    const r = await packageKitBuild("mongodb", out, join(work, "tampered-cache"));
    tampered.clear();
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${pinPath(pin).split("/").at(-1)} has SHA-256`);
    expect(r.stderr).toContain(`pinned ${pin.sha256}`);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });
});

describe("the example program under Pulumi's mocks, with the kit the package built", () => {
  type Evaluated = {
    outputs: Record<string, unknown>;
    resources: Array<{ type: string; name: string; inputs: Record<string, any> }>;
  };
  let evaluated: Evaluated;
  beforeAll(() => {
    // What `npm run check` runs, with the kit's JSON as `ycsb-lab kit build --json` printed it.
    run(process.execPath, [join(consumer, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"]);
    writeFileSync(join(consumer, "kit.json"), JSON.stringify(kit));
    run(process.execPath, ["bin/check-under-mocks.js", "mock-resources.json"]);
    evaluated = JSON.parse(readFileSync(join(consumer, "mock-resources.json"), "utf8")) as Evaluated;
  }, 600_000);

  it("uploads that kit by its hash, and every instance fetches it", () => {
    const uploads = evaluated.resources.filter(
      (r) => r.type === "aws:s3/bucketObjectv2:BucketObjectv2" && String(r.inputs.key).startsWith("kits/"),
    );
    expect(uploads.map((u) => [u.inputs.key, u.inputs.source])).toEqual([
      [`kits/${kit.sha256}.tar.gz`, { file: kit.path }],
    ]);
    const instances = evaluated.resources.filter((r) => r.type === "aws:ec2/instance:Instance");
    expect(instances.length).toBe(2);
    for (const i of instances) expect(i.inputs.userData).toContain(`kits/${kit.sha256}.tar.gz`);
    expect(evaluated.outputs).toMatchObject({
      kitSha256: kit.sha256,
      resultsPrefix: "s3://bench-results-mock/runs/consumer-check-1/",
    });
  });
});
