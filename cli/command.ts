import { type ParseArgsConfig, parseArgs } from "node:util";

/** One `ycsb-lab <name>` subcommand. `run` returns the process exit code. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The full `--help` text; keep it true to what `run` accepts. */
  usage: string;
  run(args: string[]): Promise<number>;
}

/** A usage error: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/** An input error (unreadable, empty, truncated): printed as is, exit code 1. */
export class InputError extends Error {}

/**
 * node:util's parseArgs with its complaints (unknown option, missing value) thrown as usage errors; `hint` is added
 * to the message.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T, hint = ""): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError(`${(err as Error).message}${hint}`);
  }
}
