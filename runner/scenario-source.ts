import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { scenario as builtIn, checkScenario, type PlannableScenario, SCENARIOS } from "../model/index.js";

/** A scenario by built-in name, or from a YAML/JSON file; problems name the field or the file. */
export async function loadScenario(nameOrFile: string): Promise<PlannableScenario> {
  if (Object.hasOwn(SCENARIOS, nameOrFile)) return builtIn(nameOrFile);
  if (!/\.(ya?ml|json)$/i.test(nameOrFile)) {
    throw new Error(
      `scenario: "${nameOrFile}" is neither a built-in scenario (${Object.keys(SCENARIOS).join(", ")}) nor a .yaml/.json file`,
    );
  }
  let text: string;
  try {
    text = await readFile(nameOrFile, "utf8");
  } catch (err) {
    throw new Error(`scenario: cannot read ${nameOrFile}: ${(err as Error).message}`);
  }
  let spec: unknown;
  try {
    spec = /\.json$/i.test(nameOrFile) ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new Error(
      `scenario: ${nameOrFile} is not valid ${/\.json$/i.test(nameOrFile) ? "JSON" : "YAML"}: ${(err as Error).message}`,
    );
  }
  if (!spec || typeof spec !== "object") throw new Error(`scenario: ${nameOrFile} holds no scenario object`);
  const errors = checkScenario(spec as PlannableScenario);
  if (errors.length) throw new Error(`scenario ${nameOrFile}: ${errors.map((e) => e.message).join("; ")}`);
  return spec as PlannableScenario;
}
