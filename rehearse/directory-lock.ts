import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `work` while holding a lock folder (mkdir is atomic): two rehearsals building the same cache never write it
 * at once. A lock whose owner process is gone is taken over.
 */
export async function withDirectoryLock<T>(dir: string, work: () => Promise<T>, timeoutMs = 30 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  mkdirSync(dirname(dir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, "pid"), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileOr(join(dir, "pid")));
      if (owner && !alive(owner)) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`${dir}: held by process ${owner || "unknown"} for more than ${timeoutMs / 60_000} min`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readFileOr(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}
