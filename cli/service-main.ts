#!/usr/bin/env node
import { SERVICE_COMMANDS } from "./commands/service.js";
import { runCli } from "./dispatch.js";

// The dashboard kit's entry (kit/build.ts buildServiceKit): the instance commands plus the API; no Pulumi, no PGlite.
runCli(SERVICE_COMMANDS);
