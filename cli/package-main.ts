#!/usr/bin/env node
import { INSTANCE_COMMANDS } from "./commands/instance.js";
import { runCli } from "./dispatch.js";

// The @ycsb-lab/cli package's entry (kit/packages.ts bundles this file): the instance commands, and `kit build`
// from the package's own parts; the kit it builds carries cli/instance-main.ts's bundle, without `kit`.
runCli({
  ...INSTANCE_COMMANDS,
  kit: {
    summary: "Build the kit a stack ships to its instances, from this package and Maven Central",
    load: async () => (await import("./commands/kit-from-package.js")).command,
  },
});
