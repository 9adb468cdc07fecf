import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { EngineArtifact } from "../../engines/runtime.js";

/** Apache .sha512 files come as "<hash>  <file>" or "<file>: <HASH IN GROUPS>": the 128 hex digits, lower-cased. */
export function parseSha512File(text: string): string {
  const hex = text.replace(/^[^:\n]*:/, "").replace(/\s+/g, "").match(/[0-9a-fA-F]{128}/)?.[0];
  if (!hex) throw new Error("no SHA-512 digest in the checksum file");
  return hex.toLowerCase();
}

async function download(url: string, file: string): Promise<string> {
  const response = await fetch(url, { redirect: "follow" });
  if (!response.ok || !response.body) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const hash = createHash("sha512");
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  body.on("data", (chunk: Buffer) => hash.update(chunk));
  await pipeline(body, createWriteStream(file));
  return hash.digest("hex");
}

async function withRetries<T>(what: string, fn: () => Promise<T>, attempts = 5): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 2000 * 2 ** i));
    }
  }
  throw new Error(`${what}: ${(last as Error).message} (after ${attempts} attempts)`);
}

/**
 * Puts each artifact under `installDir/<into>`: downloaded, checked against the digest published beside it, and
 * unpacked; a second boot finds it in place (a marker holds the digest). In a rehearsal, `localArtifacts` (a
 * folder laid out like the unpacked distribution) stands in for the download and is linked instead.
 * Returns one line per artifact for the status.
 */
export async function installArtifacts(artifacts: EngineArtifact[], installDir: string, localArtifacts?: string): Promise<string[]> {
  mkdirSync(installDir, { recursive: true });
  const notes: string[] = [];
  for (const a of artifacts) {
    const dest = join(installDir, a.into);
    const marker = join(installDir, `.${a.into}.installed`);
    if (localArtifacts) {
      rmSync(dest, { recursive: true, force: true });
      symlinkSync(localArtifacts, dest);
      notes.push(`${a.name}: local artifacts ${localArtifacts} (rehearsal; the instance downloads ${a.url})`);
      continue;
    }
    if (existsSync(marker)) {
      notes.push(`${a.name}: already installed (sha512 ${readFileSync(marker, "utf8").slice(0, 16)}...)`);
      continue;
    }
    const file = join(installDir, a.name);
    const expected = await withRetries(`checksum of ${a.name}`, async () => {
      const r = await fetch(a.checksumUrl, { redirect: "follow" });
      if (!r.ok) throw new Error(`GET ${a.checksumUrl}: HTTP ${r.status}`);
      return parseSha512File(await r.text());
    });
    const actual = await withRetries(`download of ${a.name}`, () => download(a.url, file));
    if (actual !== expected) throw Object.assign(new Error(`${a.name}: SHA-512 ${actual.slice(0, 16)}... does not match the published ${expected.slice(0, 16)}...`), { permanent: true });
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    const tar = spawnSync("tar", ["-xzf", file, "-C", dest, `--strip-components=${a.stripComponents}`], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`${a.name}: unpacking failed: ${tar.stderr.trim()}`);
    rmSync(file, { force: true });
    writeFileSync(marker, actual);
    notes.push(`${a.name}: downloaded and checked (sha512 ${actual.slice(0, 16)}...)`);
  }
  return notes;
}
