import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { NamedFile } from "./assemble.js";
import { type DriverPin, pinFileName, pinPath, sha256Of } from "./driver-pins.js";

/**
 * Pinned jars from a Maven 2 layout repository (Maven Central by default, or a mirror: https, http or file URL),
 * each checked against its pinned SHA-256 before it is used or kept. Kept in a cache named by that hash, which is
 * checked again on every read. Plain downloads: no Maven, no Java.
 */
export const MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2";

export interface MavenFetch {
  /** Repository base URL. @default Maven Central */
  repository?: string;
  /** Cache folder. @default $XDG_CACHE_HOME/ycsb-lab/maven, else ~/.cache/ycsb-lab/maven */
  cacheDir?: string;
  log?: (line: string) => void;
}

export function defaultMavenCache(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ycsb-lab", "maven");
}

/** The artifact's URL under `repository`; refuses what is not an http(s) or file URL. */
export function artifactUrl(repository: string, pin: DriverPin): URL {
  let base: URL;
  try {
    base = new URL(repository.endsWith("/") ? repository : `${repository}/`);
  } catch {
    throw new Error(`--maven-repo: "${repository}" is not a URL (e.g. ${MAVEN_CENTRAL})`);
  }
  if (!["https:", "http:", "file:"].includes(base.protocol))
    throw new Error(`--maven-repo: ${base.protocol} is not https:, http: or file:`);
  return new URL(pinPath(pin), base);
}

// Tries per artifact for a network error or a server's 5xx/429; a 404 is final.
const TRIES = 3;
const TIMEOUT_MS = 10 * 60_000;

async function download(url: URL): Promise<Buffer> {
  if (url.protocol === "file:") {
    const path = fileURLToPath(url);
    if (!existsSync(path)) throw new Error(`${url.href}: no such file`);
    return readFileSync(path);
  }
  let last = "";
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (res.ok) return Buffer.from(await res.arrayBuffer());
      last = `HTTP ${res.status}`;
      if (res.status < 500 && res.status !== 429) break;
    } catch (err) {
      last = (err as Error).cause
        ? `${(err as Error).message} (${String((err as { cause: unknown }).cause)})`
        : (err as Error).message;
    }
    if (attempt < TRIES) await new Promise((r) => setTimeout(r, 1000 * 2 ** attempt));
  }
  throw new Error(`${url.href}: ${last}`);
}

/** One pinned jar: the cache's copy when its bytes still match, else downloaded, checked, then cached. */
export async function fetchPinned(pin: DriverPin, o: MavenFetch = {}): Promise<NamedFile> {
  const name = pinFileName(pin);
  const cacheDir = o.cacheDir ?? defaultMavenCache();
  const cached = join(cacheDir, `${pin.sha256}.jar`);
  if (existsSync(cached)) {
    const data = readFileSync(cached);
    if (sha256Of(data) === pin.sha256) return { name, data };
    rmSync(cached, { force: true });
  }
  const url = artifactUrl(o.repository ?? MAVEN_CENTRAL, pin);
  o.log?.(`kit: downloading ${url.href}`);
  const data = await download(url).catch((err: Error) => {
    throw new Error(`kit: cannot fetch ${name}: ${err.message}`);
  });
  const got = sha256Of(data);
  if (got !== pin.sha256) throw new Error(`kit: ${url.href} has SHA-256 ${got}, pinned ${pin.sha256}: not used`);
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${cached}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, cached);
  return { name, data };
}

/** Every pin, a few downloads at a time; fails with every artifact that could not be had. */
export async function fetchAllPinned(
  pins: readonly DriverPin[],
  o: MavenFetch = {},
  parallel = 4,
): Promise<NamedFile[]> {
  const out: NamedFile[] = new Array(pins.length);
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < pins.length; i = next++) {
      try {
        out[i] = await fetchPinned(pins[i]!, o);
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, pins.length) }, worker));
  if (failures.length) throw new Error(failures.join("\n"));
  return out;
}
