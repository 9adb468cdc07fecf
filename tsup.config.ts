import { defineConfig } from "tsup";

// Library entries only (model, infra components): the CLI, runner, API and dashboard run from a checkout, so the
// published package pulls in none of their server dependencies. @pulumi/* are peer dependencies, never bundled.
export default defineConfig({
  entry: { index: "index.ts", model: "model/index.ts", infra: "infra/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // @aws-sdk/client-ec2 is an optional peer: the zone's Spot placement scores (infra/spot-placement-scores.ts).
  external: ["@pulumi/pulumi", "@pulumi/aws", "@aws-sdk/client-ec2"],
});
