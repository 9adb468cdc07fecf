import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltPackage, buildCliPackage, buildServerPackage } from "../../kit/packages.js";
import { seedDocuments } from "../web/web-seed.js";

/**
 * The packages per audience (kit/packages.ts), each as its user gets it: `npm pack`, installed from the tarball into
 * an empty folder from the npm cache (`npm ci` warmed it), then its job run with nothing of this checkout around.
 * The library's own install (components and model, no @prisma/*) is test/infra/infra-package.test.ts.
 */
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-packages-"));
const npmEnv = {
  ...process.env,
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};
let cli: BuiltPackage;
let server: BuiltPackage;

function install(tarball: string, folder: string): string {
  const dir = join(work, folder);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `consumer-${folder}`, private: true }));
  execFileSync("npm", ["install", "--prefer-offline", "--no-package-lock", tarball], {
    cwd: dir,
    env: npmEnv,
    stdio: "pipe",
  });
  return dir;
}

/** Every package folder an install put under node_modules, scoped ones as @scope/name. */
function installed(dir: string): string[] {
  const nm = join(dir, "node_modules");
  return readdirSync(nm)
    .filter((d) => !d.startsWith("."))
    .flatMap((d) => (d.startsWith("@") ? readdirSync(join(nm, d)).map((s) => `${d}/${s}`) : [d]))
    .sort();
}

beforeAll(async () => {
  const out = join(work, "packed");
  mkdirSync(out);
  cli = await buildCliPackage(out);
  server = await buildServerPackage(out);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("@ycsb-lab/cli: the command line and runner, from its tarball", () => {
  let dir: string;
  const ycsbLab = (...args: string[]) =>
    execFileSync(join(dir, "node_modules", ".bin", "ycsb-lab"), args, { cwd: dir, encoding: "utf8", env: npmEnv });
  beforeAll(() => {
    dir = install(cli.tarball, "cli");
  }, 300_000);

  it("installs alone: no npm dependency at all", () => {
    expect(installed(dir)).toEqual(["@ycsb-lab/cli"]);
  });

  it("`ycsb-lab --help` lists the instance commands, and `plan` plans a built-in scenario", () => {
    const help = ycsbLab("--help");
    expect(help).toMatch(/^ycsb-lab: benchmark databases in the cloud with YCSB/);
    for (const c of ["plan", "run", "boot", "status", "merge", "parse", "kit"])
      expect(help).toMatch(new RegExp(`^  ${c} `, "m"));
    const plan = JSON.parse(ycsbLab("plan", "--scenario", "quickstart", "--format", "json")) as {
      scenario: string;
      phases: { kind: string }[];
    };
    expect(plan.scenario).toBe("quickstart");
    expect(plan.phases.map((p) => p.kind)).toContain("load");
  });

  it("carries YCSB 0.17.0's core, where the runner finds it", () => {
    expect(existsSync(join(dir, "node_modules", "@ycsb-lab", "cli", "java", "ycsb", "core", "core-0.17.0.jar"))).toBe(
      true,
    );
  });

  it("carries every part of a kit but the drivers: the instance CLI, each binding's own jar, the drivers' pins", () => {
    const parts = join(dir, "node_modules", "@ycsb-lab", "cli", "kit-parts");
    expect(existsSync(join(parts, "ycsb-lab.mjs"))).toBe(true);
    // Our jars only (the module's, and common's where the module uses it); the drivers come by their pins.
    for (const m of ["cassandra", "mongodb", "couchbase", "hbase"]) {
      const jars = readdirSync(join(parts, "bindings", m)).map((f) => f.replace(/-[\d.]+(-SNAPSHOT)?\.jar$/, ""));
      expect(jars).toContain(`ycsb-lab-binding-${m}`);
      expect(jars.filter((j) => j !== `ycsb-lab-binding-${m}` && j !== "ycsb-lab-binding-common")).toEqual([]);
    }
    const pins = JSON.parse(readFileSync(join(parts, "driver-pins.json"), "utf8")) as {
      modules: Record<string, unknown[]>;
    };
    expect(Object.keys(pins.modules).sort()).toEqual(["cassandra", "couchbase", "hbase", "mongodb"]);
  });
});

describe("@ycsb-lab/server: the results service and dashboard, from its tarball", () => {
  let dir: string;
  let serve: ChildProcess | undefined;
  let base = "";
  beforeAll(async () => {
    dir = install(server.tarball, "server");
    serve = spawn(
      join(dir, "node_modules", ".bin", "ycsb-lab-server"),
      ["serve", "--host", "127.0.0.1", "--port", "0"],
      { cwd: dir, env: npmEnv, stdio: ["ignore", "pipe", "pipe"] },
    );
    let log = "";
    base = await new Promise<string>((resolve, reject) => {
      const seen = (chunk: Buffer) => {
        log += chunk.toString();
        const m = /ycsb-lab API on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
        if (m) resolve(m[1]!);
      };
      serve!.stdout!.on("data", seen);
      serve!.stderr!.on("data", seen);
      serve!.on("exit", (code) => reject(new Error(`serve exited with ${code}:\n${log}`)));
    });
  }, 300_000);
  afterAll(async () => {
    if (serve && serve.exitCode === null) {
      const exited = new Promise((r) => serve!.once("exit", r));
      serve.kill("SIGTERM");
      await exited;
    }
  });

  it("installs without development tools: PGlite only beside it", () => {
    expect(installed(dir)).toEqual(["@electric-sql/pglite", "@ycsb-lab/server"]);
  });

  it("serves the dashboard it was packed with, and its bundle", async () => {
    const health = await fetch(`${base}/health`);
    expect([health.status, await health.json()]).toEqual([200, { ok: true, database: "pglite" }]);
    const html = await (await fetch(`${base}/`)).text();
    const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const bundle = await fetch(new URL(script!, `${base}/`));
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${base}/docs/static/swagger-ui.css`)).status).toBe(200);
  });

  it("stores a real result document with the token it keeps in the working directory, and answers it back", async () => {
    const tokenFile = join(dir, ".local", "write-token");
    expect(existsSync(tokenFile)).toBe(true);
    const token = readFileSync(tokenFile, "utf8").trim();
    const doc = seedDocuments().documents[0]!;
    const post = await fetch(`${base}/api/v1/results`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(doc),
    });
    expect(post.status, await post.clone().text()).toBe(201);
    const runs = (await (await fetch(`${base}/api/v1/runs?limit=10`)).json()) as { runs: { id: string }[] };
    expect(runs.runs.map((r) => r.id)).toContain(doc.run.id);
    // The data is the working directory's, not inside node_modules.
    expect(existsSync(join(dir, ".local", "pglite"))).toBe(true);
    expect(existsSync(join(dir, "node_modules", "@ycsb-lab", "server", ".local"))).toBe(false);
  });
});
