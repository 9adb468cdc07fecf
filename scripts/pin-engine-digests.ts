/**
 * Prints the digest each vendor publishes beside every engine artifact ycsb-lab installs (engines/<engine>/runtime.ts),
 * and whether engines/artifact-digests.ts pins it already. Run online (npx tsx scripts/pin-engine-digests.ts), compare
 * a new value with a second source (the vendor's release notes, an official image's pin), then add it to
 * engines/artifact-digests.ts naming that source.
 */
import { pinnedDigest } from "../engines/artifact-digests.js";
import { engineRuntime } from "../engines/runtimes.js";
import { ENGINE_VERSIONS, ENGINES } from "../model/engine.js";
import { parseSha256File, parseSha512File } from "../runner/boot/engine-install.js";

for (const engine of ENGINES) {
  for (const a of engineRuntime(engine).artifacts(ENGINE_VERSIONS[engine])) {
    const pin = pinnedDigest(a.name);
    let published: string;
    try {
      const r = await fetch(a.checksumUrl, { redirect: "follow" });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const text = await r.text();
      published = a.checksum === "sha256" ? parseSha256File(text) : parseSha512File(text);
    } catch (err) {
      published = `(could not read ${a.checksumUrl}: ${(err as Error).message})`;
    }
    const state = !pin ? "NOT PINNED" : pin.digest === published ? "pinned, agrees" : "PINNED, DIFFERS";
    console.log(`${engine} ${a.name} ${a.checksum} ${published} ${state}`);
  }
}
