import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import type { ConfigSource } from "./settings.js";

export const STACKS_DIR = fileURLToPath(new URL(".", import.meta.url));

/** The stacks a checkout has: one Pulumi.<name>.yaml each. */
export function stackNames(dir = STACKS_DIR): string[] {
  return readdirSync(dir)
    .map((f) => /^Pulumi\.(.+)\.yaml$/.exec(f)?.[1])
    .filter((s): s is string => Boolean(s))
    .sort();
}

/**
 * The config Pulumi would give the program for a stack, without a Pulumi CLI: the project's defaults
 * (Pulumi.yaml) overlaid by the stack file, overlaid by `overrides` (full keys, e.g. "ycsb-lab:nodes").
 */
export function stackConfigFromFiles(
  stack: string,
  overrides: Record<string, string> = {},
  dir = STACKS_DIR,
): ConfigSource {
  const file = join(dir, `Pulumi.${stack}.yaml`);
  if (!existsSync(file))
    throw new Error(`--stack: no stacks/Pulumi.${stack}.yaml (stacks: ${stackNames(dir).join(", ")})`);
  const project = parseYaml(readFileSync(join(dir, "Pulumi.yaml"), "utf8")) as {
    config?: Record<string, { default?: unknown }>;
  };
  const config = (parseYaml(readFileSync(file, "utf8")) as { config?: Record<string, unknown> } | null)?.config ?? {};
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries(project.config ?? {}))
    if (v?.default !== undefined) merged[k] = String(v.default);
  for (const [k, v] of Object.entries(config)) merged[k] = String(v);
  Object.assign(merged, overrides);
  return (key) => merged[key];
}
