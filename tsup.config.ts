import { defineConfig } from "tsup";

// Library entries only: the CLI runs from source through tsx, so the published library stays small.
export default defineConfig({
  entry: { index: "index.ts", model: "model/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
