import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

/**
 * DESIGN.md's arrows as dependency-cruiser rules (.dependency-cruiser.cjs). `npm test` checks the whole tree with them
 * (`npm run lint:layers`); here they must catch a planted violation of each kind, so a rule that stopped matching
 * (a renamed folder, a wrong pattern) cannot pass silently.
 */
const require = createRequire(import.meta.url);
const { forbidden } = require("../../.dependency-cruiser.cjs") as { forbidden: unknown[] };
const PLANTED = fileURLToPath(new URL("../fixtures/layering/", import.meta.url));

async function violations(): Promise<string[]> {
  const result = await cruise(["model", "api", "web", "runner", "infra", "rehearse"], {
    baseDir: PLANTED,
    ruleSet: { forbidden } as never,
    validate: true,
    tsPreCompilationDeps: true,
  });
  const output = (result as { output: ICruiseResult }).output;
  return output.summary.violations.map((v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

describe("layering rules", () => {
  it("flag each planted violation: an upward import, the API importing web/, a cycle, a module importing the rehearsal", async () => {
    expect(await violations()).toEqual([
      "api-imports-only-below: api/routes.ts -> web/chart.ts",
      "infra-imports-only-below: infra/component.ts -> rehearse/run.ts",
      "model-imports-only-below: model/plan.ts -> api/routes.ts",
      "no-circular: runner/a.ts -> runner/b.ts",
      "nothing-imports-rehearse: infra/component.ts -> rehearse/run.ts",
    ]);
  });
});
