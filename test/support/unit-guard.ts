import { ChildProcess } from "node:child_process";
import { Server } from "node:net";

/**
 * Setup file of the unit project (vitest.config.ts): a unit file is pure, so listening on a socket or starting a
 * process in the background fails it with a message saying where it belongs. Short synchronous tools (`bash -n`,
 * `shellcheck`, `tar`) stay allowed: they end before the call returns and leave nothing behind.
 */
const moveIt = (what: string) =>
  new Error(
    `${what} in a unit test file: a file that starts servers or processes is an integration file (add it to INTEGRATION_FILES in vitest.config.ts)`,
  );

Server.prototype.listen = function listen(): never {
  throw moveIt("a server listening");
};
// Every asynchronous spawn (spawn, exec, execFile, fork) goes through ChildProcess#spawn, which @types/node omits.
(ChildProcess.prototype as unknown as { spawn: (options: { file?: string }) => never }).spawn = (options) => {
  throw moveIt(`a process started (${options?.file ?? "?"})`);
};
