// Types of scripts/prisma-cli.mjs for the tests that import it.
export function schemaEngineFor(
  command: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined;
export function generateInputsHash(root: string, args: string[]): string;
export function generatedUpToDate(root: string, args: string[]): boolean;
