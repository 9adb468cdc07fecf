#!/usr/bin/env node
import { COMMANDS } from "./commands/index.js";
import { runCli } from "./dispatch.js";

runCli(COMMANDS);
