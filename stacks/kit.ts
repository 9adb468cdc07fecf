import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { buildKit, buildServiceKit } from "../kit/build.js";
import type { Engine } from "../model/engine.js";
import type { ConfigSource, StackKit } from "./settings.js";

/**
 * The kit a stack ships: the archive named by config `ycsb-lab:kit` (with `ycsb-lab:kitVersion`), or one built from
 * this checkout for the stack's engine (`ycsb-lab kit build`; cached by content, so an unchanged checkout gives the
 * same archive and `pulumi up` uploads nothing new).
 */
export async function stackKit(get: ConfigSource, engine: Engine): Promise<StackKit> {
  const path = get("ycsb-lab:kit");
  if (path) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (err) {
      throw new Error(`ycsb-lab:kit: cannot read ${path}: ${(err as Error).message}`);
    }
    return {
      path,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      version: get("ycsb-lab:kitVersion") ?? "unknown",
    };
  }
  const kit = await buildKit(engine, { log: (line) => console.error(line) });
  return { path: kit.path, sha256: kit.sha256, version: kit.version };
}

/** The dashboard stack's kit: the archive named by `ycsb-lab:kit`, or the dashboard kit built from this checkout. */
export async function serviceKit(get: ConfigSource): Promise<StackKit> {
  const path = get("ycsb-lab:kit");
  if (path) return stackKit(get, "cassandra");
  const kit = await buildServiceKit({ log: (line) => console.error(line) });
  return { path: kit.path, sha256: kit.sha256, version: kit.version };
}
