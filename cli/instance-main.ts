#!/usr/bin/env node
import { INSTANCE_COMMANDS } from "./commands/instance.js";
import { runCli } from "./dispatch.js";

// The kit's entry (kit/build.ts bundles this file): only what an instance runs, so the kit carries no API,
// database client or Pulumi.
runCli(INSTANCE_COMMANDS);
