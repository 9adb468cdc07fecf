import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The published package, as another Pulumi TypeScript program gets it: `npm pack`, installed offline (from the npm
 * cache `npm ci` warmed) into a CommonJS and an ESM consumer, each type-checked with a program using BenchmarkScenario.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-consumer-"));
const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(root, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, {
    cwd,
    stdio: "pipe",
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });

/** Server-side packages of the runner, API and dashboard that must never reach an infra repo. */
const SERVER_DEPENDENCIES = [
  "fastify",
  "@fastify/static",
  "@prisma/client",
  "prisma",
  "@electric-sql/pglite",
  "pglite-prisma-adapter",
  "chart.js",
  "@aws-sdk/client-s3",
  "zx",
  "pg",
  "playwright-core",
];

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import { BenchmarkScenario, SCENARIOS, type ScenarioSpec, type BenchmarkScenarioArgs } from "ycsb-lab";
import { ENGINE_VERSIONS } from "ycsb-lab/model";

const args: BenchmarkScenarioArgs = {
  spec: SCENARIOS["datastax-2013"] as unknown as ScenarioSpec,
  deployment: { engine: "cassandra", nodes: 4, preset: "balanced" },
  runId: "consumer-1",
  owner: "infra-team",
  expiry: "2030-01-01",
  region: "us-east-1",
  // Built with \`ycsb-lab kit build --engine cassandra\` (the archive is read only at \`pulumi up\`).
  kit: { path: "ycsb-lab-kit-cassandra.tar.gz", sha256: "${"0".repeat(64)}", version: "0.1.0" },
};
const run = new BenchmarkScenario("bench", args);
export const endpoints: string[] = run.endpoints;
export const prefix: pulumi.Output<string> = run.resultsPrefix;
export const cost: number = run.estimatedCostPerHour;
export const version: string = ENGINE_VERSIONS.cassandra;
`;

function duKiB(path: string): number {
  return Number(run("du", ["-sk", path], root).split("\t")[0]);
}

let tarball = "";
const sizes: Record<string, number> = {};

beforeAll(() => {
  // prepare (tsup) is what npm pack runs; run it explicitly so a build error shows here, then pack without scripts.
  run("npx", ["tsup"], root);
  const packed = JSON.parse(
    run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], root),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, packed[0]!.filename);
  // One install (an ESM package); the CommonJS consumer is a sub-folder whose package.json says "commonjs".
  const consumer = join(work, "esm");
  mkdirSync(consumer);
  writeFileSync(
    join(consumer, "package.json"),
    JSON.stringify({
      name: "consumer",
      private: true,
      type: "module",
      dependencies: {
        "ycsb-lab": `file:${tarball}`,
        "@pulumi/pulumi": version("@pulumi/pulumi"),
        "@pulumi/aws": version("@pulumi/aws"),
      },
      devDependencies: { "@types/node": version("@types/node") },
    }),
  );
  mkdirSync(join(consumer, "cjs"));
  writeFileSync(
    join(consumer, "cjs", "package.json"),
    JSON.stringify({ name: "consumer-cjs", private: true, type: "commonjs" }),
  );
  for (const dir of [consumer, join(consumer, "cjs")]) {
    writeFileSync(join(dir, "index.ts"), PROGRAM);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          noEmit: true,
          types: ["node"],
        },
        files: ["index.ts"],
      }),
    );
  }
  run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"],
    consumer,
  );
  const nm = join(work, "esm", "node_modules");
  sizes.consumer = duKiB(nm) - duKiB(join(nm, "@types"));
  sizes.pulumiAws = duKiB(join(root, "node_modules", "@pulumi", "aws"));
  sizes.ycsbLab = duKiB(join(nm, "ycsb-lab"));
}, 600_000);

describe("npm package", () => {
  it("ships only the built library", () => {
    const files = run("tar", ["-tzf", tarball], root).split("\n").filter(Boolean);
    expect(files).toContain("package/dist/index.js");
    expect(files).toContain("package/dist/index.cjs");
    expect(files).toContain("package/dist/index.d.cts");
    expect(files.some((f) => /^package\/(api|runner|web|prisma|test|cli)\//.test(f))).toBe(false);
  });

  it.each(["cjs", "esm"])(
    "a %s Pulumi program installs it and type-checks against it",
    (flavour) => {
      const dir = flavour === "esm" ? join(work, "esm") : join(work, "esm", "cjs");
      // tsc prints the errors and exits non-zero on any type error: execFileSync throws with them.
      run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], dir);
      const load =
        flavour === "cjs"
          ? `const m = require("ycsb-lab"); console.log(typeof m.BenchmarkScenario, typeof m.planScenario)`
          : `import("ycsb-lab").then((m) => console.log(typeof m.BenchmarkScenario, typeof m.planScenario))`;
      expect(run(process.execPath, ["-e", load], dir).trim()).toBe("function function");
      // tsc over @pulumi/aws's types takes minutes on a busy 2-core machine: a bound, not a measurement.
    },
    300_000,
  );

  it("pulls in no server dependency of the runner, API or dashboard", () => {
    const nm = join(work, "esm", "node_modules");
    expect(SERVER_DEPENDENCIES.filter((p) => existsSync(join(nm, p)))).toEqual([]);
    // Nothing of Prisma at all: dist/ imports none of it (the schema engine and the adapter types are the server's).
    expect(existsSync(join(nm, "@prisma")) ? readdirSync(join(nm, "@prisma")).map((n) => `@prisma/${n}`) : []).toEqual(
      [],
    );
    const top = readdirSync(join(work, "esm", "node_modules")).filter((n) => !n.startsWith("."));
    console.log(
      `consumer node_modules (without @types): ${(sizes.consumer! / 1024).toFixed(1)} MiB; @pulumi/aws alone: ${(sizes.pulumiAws! / 1024).toFixed(1)} MiB; ` +
        `ycsb-lab itself: ${(sizes.ycsbLab! / 1024).toFixed(2)} MiB; ${top.length} top-level entries`,
    );
    expect(sizes.ycsbLab!).toBeLessThan(5 * 1024);
  });

  it("declares as dependencies exactly the packages dist/ imports, Pulumi's as peers", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      dependencies: object;
      peerDependencies: object;
    };
    const imported = new Set<string>();
    for (const file of readdirSync(join(root, "dist")).filter((f) => /\.c?js$/.test(f))) {
      const code = readFileSync(join(root, "dist", file), "utf8");
      for (const m of code.matchAll(/(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*)["']([^"'./][^"']*)["']/g)) {
        const spec = m[1]!.replace(/^node:/, "");
        if (builtinModules.includes(spec.split("/")[0]!)) continue;
        imported.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
      }
    }
    expect([...imported].sort()).toEqual(
      [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].sort(),
    );
  });

  it("installs nothing beyond its dependencies' own trees besides the Pulumi peers", () => {
    // Every package ycsb-lab brings, found the way Node resolves them from its folder (hoisted by npm).
    const nm = join(work, "esm", "node_modules");
    const brought = new Set<string>();
    const visit = (name: string) => {
      if (brought.has(name)) return;
      brought.add(name);
      const manifest = JSON.parse(readFileSync(join(nm, name, "package.json"), "utf8")) as { dependencies?: object };
      for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep);
    };
    const own = JSON.parse(readFileSync(join(nm, "ycsb-lab", "package.json"), "utf8")) as { dependencies: object };
    for (const dep of Object.keys(own.dependencies)) visit(dep);
    // TypeBox, hdr-histogram-js and the three small packages hdr-histogram-js loads its WebAssembly with.
    expect([...brought].sort()).toEqual([
      "@assemblyscript/loader",
      "@sinclair/typebox",
      "base64-js",
      "hdr-histogram-js",
      "pako",
    ]);
  });
});
