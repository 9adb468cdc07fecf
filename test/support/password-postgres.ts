import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A throwaway PostgreSQL cluster that checks passwords (scram-sha-256 over TCP), unlike the suite's test cluster
 * (scripts/setup-postgres.sh, trust): for tests where a changed password must be refused. Debian's binaries, run as
 * the package's postgres user when this process is root (PostgreSQL refuses root).
 */
export interface PasswordPostgres {
  host: string;
  port: number;
  /** The superuser's URL (user ycsb, password "admin"). */
  adminUrl: string;
  stop(): void;
}

const bin = () => {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(a) - Number(b));
  return join("/usr/lib/postgresql", versions[versions.length - 1]!, "bin");
};
const asOwner = (cmd: string, args: string[]) =>
  process.getuid?.() === 0
    ? execFileSync("runuser", ["-u", "postgres", "--", cmd, ...args], { stdio: "pipe" })
    : execFileSync(cmd, args, { stdio: "pipe" });

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export async function startPasswordPostgres(): Promise<PasswordPostgres> {
  const dir = mkdtempSync(join(tmpdir(), "ycsb-lab-pg-scram-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const pwfile = join(dir, "pw");
  writeFileSync(pwfile, "admin\n");
  chmodSync(pwfile, 0o644);
  asOwner(join(bin(), "initdb"), [
    "-D",
    data,
    "-U",
    "ycsb",
    "--auth-host=scram-sha-256",
    "--auth-local=trust",
    `--pwfile=${pwfile}`,
    "-E",
    "UTF8",
    "--no-locale",
  ]);
  const port = await freePort();
  asOwner(join(bin(), "pg_ctl"), [
    "start",
    "-D",
    data,
    "-w",
    "-t",
    "60",
    "-l",
    join(dir, "server.log"),
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
  ]);
  return {
    host: "127.0.0.1",
    port,
    adminUrl: `postgresql://ycsb:admin@127.0.0.1:${port}/postgres`,
    stop() {
      asOwner(join(bin(), "pg_ctl"), ["stop", "-D", data, "-m", "fast", "-w", "-t", "60"]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
