import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { EngineArtifact } from "../../engines/runtime.js";
import { artifactKey } from "../../model/results-layout.js";
import type { ResultsStore } from "../results-store.js";

/** Apache .sha512 files come as "<hash>  <file>" or "<file>: <HASH IN GROUPS>": the 128 hex digits, lower-cased. */
export function parseSha512File(text: string): string {
  const hex = text.replace(/^[^:\n]*:/, "").replace(/\s+/g, "").match(/[0-9a-fA-F]{128}/)?.[0];
  if (!hex) throw new Error("no SHA-512 digest in the checksum file");
  return hex.toLowerCase();
}

/** MongoDB's and Couchbase's .sha256 files: "<hash>  <file>" (or the bare hash): the 64 hex digits, lower-cased. */
export function parseSha256File(text: string): string {
  const hex = text.trim().match(/^[0-9a-fA-F]{64}(?![0-9a-fA-F])/)?.[0];
  if (!hex) throw new Error("no SHA-256 digest at the start of the checksum file");
  return hex.toLowerCase();
}

const parseDigest = (a: EngineArtifact, text: string) => (a.checksum === "sha256" ? parseSha256File(text) : parseSha512File(text));

async function download(url: string, file: string, algorithm: EngineArtifact["checksum"]): Promise<string> {
  const response = await fetch(url, { redirect: "follow" });
  if (!response.ok || !response.body) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const hash = createHash(algorithm);
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  body.on("data", (chunk: Buffer) => hash.update(chunk));
  await pipeline(body, createWriteStream(file));
  return hash.digest("hex");
}

/** apt-get waits for the lock cloud-init or unattended-upgrades may hold at boot instead of failing at once. */
const APT = ["-o", "DPkg::Lock::Timeout=600", "install", "-y", "-q"];

function aptInstall(what: string[]): void {
  const out = spawnSync("apt-get", [...APT, ...what], { encoding: "utf8", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, maxBuffer: 1 << 24 });
  if (out.status !== 0) throw new Error(`apt-get install ${what.join(" ")} failed (exit ${out.status}): ${`${out.stdout}\n${out.stderr}`.trim().split("\n").slice(-10).join("\n")}`);
}

/** The engine's Debian packages beyond the JDK (a boot run as a process on a development machine installs none). */
export function installOsPackages(packages: string[]): string[] {
  if (packages.length === 0) return [];
  aptInstall(packages);
  return [`OS packages: ${packages.join(" ")}`];
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
 * The folder standing in for one artifact in a rehearsal: the local folder itself for an engine of one artifact
 * (laid out like its unpacked distribution), its `<into>` subfolder for an engine of several (HBase: hadoop/, hbase/).
 */
export function localArtifactFolder(artifacts: EngineArtifact[], a: EngineArtifact, localArtifacts: string): string {
  if (a.kind === "deb") throw Object.assign(new Error(`${a.name}: a package cannot be swapped for local artifacts (it installs a system service); rehearse this engine with its stand-in (YCSB_LAB_STAND_IN)`), { permanent: true });
  if (artifacts.length === 1) return localArtifacts;
  const dir = join(localArtifacts, a.into);
  if (!existsSync(dir)) throw Object.assign(new Error(`YCSB_LAB_ENGINE_ARTIFACTS: ${localArtifacts} has no ${a.into}/ (an engine of several artifacts needs one folder per artifact: ${artifacts.map((x) => `${x.into}/`).join(", ")})`), { permanent: true });
  return dir;
}

/**
 * Puts each artifact in place: downloaded, checked against the digest published beside it, and unpacked under
 * `installDir/<into>` (a tarball) or installed by the OS package manager (a package, which brings its service); a
 * second boot finds it in place (a marker holds the digest). In a rehearsal, `localArtifacts` (laid out like the
 * unpacked distribution, see localArtifactFolder) stands in for the download and is linked instead.
 * Returns one line per artifact for the status.
 */
/**
 * The run's bucket as a mirror of engine downloads (issue: 32 nodes each pulling about 1 GB from the vendor's
 * archive): the formation leader fetches each artifact from the vendor once and puts it there; the others wait for it
 * and take it over the S3 gateway endpoint. Every copy is checked against the digest the vendor publishes, so a
 * mirror can speed a boot up but never change what is installed.
 */
export interface ArtifactMirror {
  store: ResultsStore;
  leader: boolean;
  /** How long a non-leader waits for the leader's copy before downloading from the vendor itself. @default 20 min */
  waitMs?: number;
  pollMs?: number;
}

async function hashFile(file: string, algorithm: EngineArtifact["checksum"]): Promise<string> {
  const hash = createHash(algorithm);
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** Gets the artifact into `file`, from the mirror when it has it, else from the vendor; returns where from. */
async function fetchArtifact(a: EngineArtifact, file: string, expected: string, mirror?: ArtifactMirror): Promise<string> {
  const key = artifactKey(expected, a.name);
  const fromMirror = async () => (await mirror!.store.download(key, file)) && (await hashFile(file, a.checksum)) === expected;
  if (mirror) {
    if (await fromMirror().catch(() => false)) return "the run's bucket";
    if (!mirror.leader) {
      const deadline = Date.now() + (mirror.waitMs ?? 20 * 60_000);
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, mirror.pollMs ?? 10_000));
        if (await fromMirror().catch(() => false)) return "the run's bucket (the leader's copy)";
      }
    }
  }
  const actual = await withRetries(`download of ${a.name}`, () => download(a.url, file, a.checksum));
  if (actual !== expected) throw Object.assign(new Error(`${a.name}: ${a.checksum.toUpperCase()} ${actual.slice(0, 16)}... does not match the published ${expected.slice(0, 16)}...`), { permanent: true });
  if (mirror?.leader) {
    await mirror.store.upload(key, file, "application/octet-stream").catch(() => undefined);
    return `${a.url} (mirrored to the bucket for the other nodes)`;
  }
  return a.url;
}

export async function installArtifacts(artifacts: EngineArtifact[], installDir: string, localArtifacts?: string, mirror?: ArtifactMirror): Promise<string[]> {
  mkdirSync(installDir, { recursive: true });
  const notes: string[] = [];
  for (const a of artifacts) {
    const dest = join(installDir, a.into);
    const marker = join(installDir, `.${a.into}.installed`);
    if (localArtifacts) {
      const local = localArtifactFolder(artifacts, a, localArtifacts);
      rmSync(dest, { recursive: true, force: true });
      symlinkSync(local, dest);
      notes.push(`${a.name}: local artifacts ${local} (rehearsal; the instance downloads ${a.url})`);
      continue;
    }
    if (existsSync(marker)) {
      notes.push(`${a.name}: already installed (${a.checksum} ${readFileSync(marker, "utf8").slice(0, 16)}...)`);
      continue;
    }
    const file = join(installDir, a.name);
    const expected = await withRetries(`checksum of ${a.name}`, async () => {
      const r = await fetch(a.checksumUrl, { redirect: "follow" });
      if (!r.ok) throw new Error(`GET ${a.checksumUrl}: HTTP ${r.status}`);
      return parseDigest(a, await r.text());
    });
    const source = await fetchArtifact(a, file, expected, mirror);
    const actual = expected;
    if (a.kind === "deb") {
      aptInstall([file]);
    } else {
      rmSync(dest, { recursive: true, force: true });
      mkdirSync(dest, { recursive: true });
      const tar = spawnSync("tar", ["-xzf", file, "-C", dest, `--strip-components=${a.stripComponents}`], { encoding: "utf8" });
      if (tar.status !== 0) throw new Error(`${a.name}: unpacking failed: ${tar.stderr.trim()}`);
    }
    rmSync(file, { force: true });
    writeFileSync(marker, actual);
    notes.push(`${a.name}: from ${source}, checked (${a.checksum} ${actual.slice(0, 16)}...)${a.kind === "deb" ? ", package installed" : ""}`);
  }
  return notes;
}
