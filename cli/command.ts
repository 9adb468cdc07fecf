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
