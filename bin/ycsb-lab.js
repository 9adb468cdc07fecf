#!/usr/bin/env node
// The CLI runs from its TypeScript source through tsx, so a checkout needs no build step.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register();
await import(fileURLToPath(new URL("../cli/main.ts", import.meta.url)));
