import type { Command } from "../command.js";

/**
 * Every subcommand, loaded lazily so `ycsb-lab parse` does not load Pulumi, Fastify or Prisma.
 * Add a command: one file in cli/commands exporting `command`, and one line here.
 */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {};
