import type { Command } from "./command.js";
import { InputError, UsageError } from "./command.js";

// The machines and the kit run Node 20 (infra/user-data.ts NODE_VERSION), which the pinned AWS SDK supports; its
// NodeVersionSupportWarning speaks of SDK releases after January 2027 and would print at every start. Switched off the
// SDK's documented way (aws/aws-sdk-js-v3#7983), before any client exists; an explicit setting wins.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

export type CommandTable = Record<string, { summary: string; load: () => Promise<Command> }>;

const help = (commands: CommandTable) => `ycsb-lab: benchmark databases in the cloud with YCSB

Usage: ycsb-lab <command> [options]     (ycsb-lab <command> --help for its options)

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join("\n")}
`;

/** Runs one subcommand of `commands`; returns the exit code (2 usage, 1 input or failure). */
export async function dispatch(argv: string[], commands: CommandTable): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(help(commands));
    return name ? 0 : 2;
  }
  const entry = commands[name];
  if (!entry) {
    process.stderr.write(`ycsb-lab: unknown command "${name}"\n\n${help(commands)}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(command.usage.endsWith("\n") ? command.usage : `${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`ycsb-lab ${name}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    if (err instanceof InputError) {
      process.stderr.write(`ycsb-lab ${name}: ${err.message}\n`);
      return 1;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`ycsb-lab ${name}: ${message}${failureHint(err, command.usage)}\n`);
    return 1;
  }
}

/** What to do about a failure the command cannot name better itself: a port another process holds. */
export function failureHint(err: unknown, usage: string): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE" && usage.includes("--port")) {
    return "\n  another process listens on that address: stop it, or choose another port with --port";
  }
  return "";
}

/** The process's entry: dispatch, then set the exit code (never exit() mid-write). */
export function runCli(commands: CommandTable): void {
  dispatch(process.argv.slice(2), commands).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`ycsb-lab: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
