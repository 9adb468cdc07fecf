import { spawnSync } from "node:child_process";

/** Whether a loopback address can be bound here (Linux routes all of 127.0.0.0/8 to lo). */
export function loopbackUsable(address: string): boolean {
  const r = spawnSync(process.execPath, [
    "-e",
    `require("net").createServer().listen(0, ${JSON.stringify(address)}, function () { this.close(); })`,
  ]);
  return r.status === 0;
}
