/**
 * CPU time spent, beside the wall clock: on a machine shared with other work, documents per second measure the
 * machine's load as much as the code, while the CPU the API's process and the Postgres server spend per document is
 * what a change to ingest moves. Linux only (/proc, proc(5)); null where the server is not a local process.
 */
import { readdirSync, readFileSync } from "node:fs";
import type pg from "pg";

/** proc(5): utime, stime, cutime and cstime are in clock ticks, USER_HZ = 100 on Linux. */
const TICK_US = 1e6 / 100;

/** A process's (or thread's) stat fields after its name (which may hold spaces): state, ppid, ..., utime at 11, stime 12, cutime 13, cstime 14. */
function statFields(pid: number | "thread-self"): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU µs the calling thread spent so far (a worker thread's own, apart from its process's other threads). */
export function threadCpuUs(): number {
  const f = statFields("thread-self");
  return (Number(f[11]) + Number(f[12])) * TICK_US;
}

/**
 * CPU µs a local Postgres server spent so far: the postmaster with the backends it reaped (its children's times) and
 * the backends still running (a pool's connections).
 */
function serverCpuUs(postmaster: number): number {
  const own = statFields(postmaster);
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = statFields(Number(name));
      if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // a process that ended meanwhile: reaped, its time is the postmaster's now
    }
  }
  return ticks * TICK_US;
}

/** The postmaster's pid of the server `client` talks to, when it runs on this machine and may be read; else null. */
export async function postmasterOf(client: pg.Pool): Promise<number | null> {
  try {
    const { rows } = await client.query("SELECT current_setting('data_directory') AS dir");
    const pid = Number(readFileSync(`${rows[0].dir}/postmaster.pid`, "utf8").split("\n")[0]);
    serverCpuUs(pid);
    return pid;
  } catch {
    return null;
  }
}

/** Starts counting; the returned function gives µs of CPU per item since, for this process and the server. */
export function cpuMeter(postmaster: number | null): (items: number) => { node: number; postgres: number | null } {
  const node0 = process.cpuUsage();
  const server0 = postmaster === null ? 0 : serverCpuUs(postmaster);
  return (items) => {
    const node = process.cpuUsage(node0);
    return {
      node: (node.user + node.system) / items,
      postgres: postmaster === null ? null : (serverCpuUs(postmaster) - server0) / items,
    };
  };
}

/** "1,234 µs" or "-" for a figure that could not be read. */
export const perItem = (us: number | null) => (us === null ? "-" : `${Math.round(us).toLocaleString("en-US")} µs`);
