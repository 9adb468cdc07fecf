/**
 * Makes test/fixtures/upgrade/previous-release.sql: a PostgreSQL database created by the previous release of the
 * results service with that release's own code, for test/api/api-upgrade.test.ts (a new release must migrate it).
 *
 * "The previous release" is the commit before the newest committed migration was added (or the commit given as the
 * first argument). Its tree is taken out of git, it generates its own Prisma client, applies its own migrations and
 * stores results with its own `ycsb-lab ingest` (two measured runs from real YCSB output and the seeds' published
 * tables); the database is then dumped as plain INSERT statements, so the test restores it without psql.
 *
 * Run: npx tsx scripts/make-upgrade-fixture.ts [commit]   (needs the repository's history and the test PostgreSQL)
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { fixtureDocument, freshPostgresDatabase, ROOT } from "../test/api/api-helpers.js";

const git = (...args: string[]) => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();

function previousRelease(): string {
  const migrations = readdirSync(join(ROOT, "prisma", "migrations"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const newest = migrations[migrations.length - 1]!;
  const added = git("log", "--diff-filter=A", "--format=%H", "--", `prisma/migrations/${newest}`).split("\n").pop();
  if (!added)
    throw new Error(
      `no commit adds prisma/migrations/${newest}: this script needs the repository's history (not a shallow clone)`,
    );
  return git("rev-parse", `${added}^`);
}

const release = process.argv[2] ? git("rev-parse", process.argv[2]) : previousRelease();
const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-upgrade-"));
let url: string | undefined;
try {
  const previous = join(dir, "previous");
  mkdirSync(previous);
  // The previous release's code, with this checkout's installed packages (no network).
  execFileSync("bash", [
    "-c",
    `git -C "$1" archive "$2" bin cli api model engines runner web prisma kit scripts package.json tsconfig.json | tar -x -C "$3"`,
    "_",
    ROOT,
    release,
    previous,
  ]);
  symlinkSync(join(ROOT, "node_modules"), join(previous, "node_modules"));
  execFileSync("npx", ["prisma", "generate", "--config", "prisma/prisma.config.ts"], {
    cwd: previous,
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: join(previous, "scripts", "prisma-schema-engine") },
    stdio: "pipe",
  });
  url = await freshPostgresDatabase("upgrade_fixture");
  const docs = join(dir, "docs.json");
  writeFileSync(
    docs,
    JSON.stringify(
      [0, 1].flatMap((client) => [
        fixtureDocument({ runId: "before-upgrade-a", client: client as 0 | 1 }),
        fixtureDocument({ runId: "before-upgrade-b", client: client as 0 | 1, nodes: 3, variant: "hdr-v1" }),
      ]),
    ),
  );
  execFileSync(process.execPath, [join(previous, "bin", "ycsb-lab.js"), "ingest", "--reference", docs], {
    cwd: previous,
    env: { ...process.env, DATABASE_URL: url, YCSB_LAB_TOKEN: "" },
    stdio: "pipe",
  });
  const dump = execFileSync("pg_dump", ["--no-owner", "--no-privileges", "--inserts", "--rows-per-insert=200", url], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  // psql meta-commands (\restrict) are not SQL: the test runs the dump through the driver.
  const sql = dump
    .split("\n")
    .filter((l) => !l.startsWith("\\"))
    .join("\n");
  const out = join(ROOT, "test", "fixtures", "upgrade");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, "previous-release.sql"),
    `-- A database of release ${release} (scripts/make-upgrade-fixture.ts)\n${sql}`,
  );
  console.log(
    `test/fixtures/upgrade/previous-release.sql: release ${release.slice(0, 12)}, ${(sql.length / 1024).toFixed(0)} KiB`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (url) {
    const name = new URL(url).pathname.slice(1);
    const admin = new pg.Client({
      connectionString: Object.assign(new URL(url), { pathname: "/postgres" }).toString(),
    });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
}
