#!/usr/bin/env node
import { COMMANDS } from "./commands/index.js";
import { InputError, UsageError } from "./command.js";

const HELP = () => `ycsb-lab: benchmark databases in the cloud with YCSB

Usage: ycsb-lab <command> [options]     (ycsb-lab <command> --help for its options)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join("\n")}
`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(HELP());
    return name ? 0 : 2;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`ycsb-lab: unknown command "${name}"\n\n${HELP()}`);
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
    process.stderr.write(`ycsb-lab ${name}: ${message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`ycsb-lab: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  },
);
