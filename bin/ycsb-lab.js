#!/usr/bin/env node
import { fileURLToPath } from "node:url";
// The CLI runs from its TypeScript source through tsx, so a checkout needs no build step.
import { register } from "tsx/esm/api";

register();
await import(fileURLToPath(new URL("../cli/main.ts", import.meta.url)));
