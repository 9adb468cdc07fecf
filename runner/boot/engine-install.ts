import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pinnedDigest } from "../../engines/artifact-digests.js";
import type { EngineArtifact } from "../../engines/runtime.js";
import { artifactKey, artifactProgressKey } from "../../model/results-layout.js";
import type { ResultsStore } from "../results-store.js";

/** Apache .sha512 files come as "<hash>  <file>" or "<file>: <HASH IN GROUPS>": the 128 hex digits, lower-cased. */
export function parseSha512File(text: string): string {
  const hex = text
    .replace(/^[^:\n]*:/, "")
    .replace(/\s+/g, "")
    .match(/[0-9a-fA-F]{128}/)?.[0];
  if (!hex) throw new Error("no SHA-512 digest in the checksum file");
  return hex.toLowerCase();
}

/** MongoDB's and Couchbase's .sha256 files: "<hash>  <file>" (or the bare hash): the 64 hex digits, lower-cased. */
export function parseSha256File(text: string): string {
  const hex = text.trim().match(/^[0-9a-fA-F]{64}(?![0-9a-fA-F])/)?.[0];
  if (!hex) throw new Error("no SHA-256 digest at the start of the checksum file");
  return hex.toLowerCase();
}

const parseDigest = (a: EngineArtifact, text: string) =>
  a.checksum === "sha256" ? parseSha256File(text) : parseSha512File(text);

async function download(
  url: string,
  file: string,
  algorithm: EngineArtifact["checksum"],
  onBytes: (bytes: number) => void = () => {},
): Promise<string> {
  const response = await fetch(url, { redirect: "follow" });
  if (!response.ok || !response.body) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const hash = createHash(algorithm);
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  let bytes = 0;
  body.on("data", (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
    onBytes(bytes);
  });
  await pipeline(body, createWriteStream(file));
  return hash.digest("hex");
}

/** apt-get waits for the lock cloud-init or unattended-upgrades may hold at boot instead of failing at once. */
const APT = ["-o", "DPkg::Lock::Timeout=600", "install", "-y", "-q"];

function aptInstall(what: string[]): void {
  const out = spawnSync("apt-get", [...APT, ...what], {
    encoding: "utf8",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    maxBuffer: 1 << 24,
  });
  if (out.status !== 0)
    throw new Error(
      `apt-get install ${what.join(" ")} failed (exit ${out.status}): ${`${out.stdout}\n${out.stderr}`.trim().split("\n").slice(-10).join("\n")}`,
    );
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
  if (a.kind === "deb")
    throw Object.assign(
      new Error(
        `${a.name}: a package cannot be swapped for local artifacts (it installs a system service); rehearse this engine with its stand-in (YCSB_LAB_STAND_IN)`,
      ),
      { permanent: true },
    );
  if (artifacts.length === 1) return localArtifacts;
  const dir = join(localArtifacts, a.into);
  if (!existsSync(dir))
    throw Object.assign(
      new Error(
        `YCSB_LAB_ENGINE_ARTIFACTS: ${localArtifacts} has no ${a.into}/ (an engine of several artifacts needs one folder per artifact: ${artifacts.map((x) => `${x.into}/`).join(", ")})`,
      ),
      { permanent: true },
    );
  return dir;
}

/**
 * The run's bucket as a mirror of engine downloads (32 nodes each pulling about 1 GB from the vendor's archive would
 * take long and cost the vendor): the formation leader fetches each artifact from the vendor once and puts it under
 * the run's artifacts/<runId>/ prefix, reporting its progress beside it; the others wait for it as long as the
 * leader's download moves, and take it over the S3 gateway endpoint. Every copy is checked against the expected
 * digest (engines/artifact-digests.ts), so a mirror can speed a boot up but never change what is installed.
 */
export interface ArtifactMirror {
  store: ResultsStore;
  runId: string;
  leader: boolean;
  /**
   * How long a non-leader waits without seeing the leader's download move (or start) before downloading from the
   * vendor itself. @default 10 min
   */
  waitMs?: number;
  pollMs?: number;
  /** How often the leader reports its download's progress. @default 15 s */
  progressEveryMs?: number;
}

async function hashFile(file: string, algorithm: EngineArtifact["checksum"]): Promise<string> {
  const hash = createHash(algorithm);
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** What the leader reports beside the mirror key while it downloads from the vendor. */
export interface MirrorProgress {
  /** "mirrored": the copy is in the bucket (a node that finds it unusable then downloads itself at once). */
  state: "downloading" | "mirrored" | "failed";
  bytes: number;
  at: string;
  reason?: string;
}

/** A non-leader's view of the leader's download, by this machine's clock (the two clocks may differ). */
export interface MirrorWait {
  /** When this node started waiting. */
  since: number;
  /** When it last saw the leader's download move (or start). */
  lastMove: number;
  /** The last progress seen. */
  seen?: MirrorProgress;
  failed?: boolean;
}

/** Pure: the wait after one more look at the leader's progress (undefined: nothing reported yet). */
export function observeLeader(w: MirrorWait, p: MirrorProgress | undefined, now: number): MirrorWait {
  if (!p) return w;
  if (p.state === "failed") return { ...w, seen: p, failed: true };
  const moved = !w.seen || p.bytes !== w.seen.bytes || p.at !== w.seen.at;
  return { ...w, seen: p, lastMove: moved ? now : w.lastMove };
}

/**
 * Pure: download from the vendor when the leader failed, mirrored a copy this node could not use (read before the
 * copy was tried), or showed no movement for `stallMs`.
 */
export function giveUpOnLeader(w: MirrorWait, now: number, stallMs: number): boolean {
  return Boolean(w.failed) || w.seen?.state === "mirrored" || now - w.lastMove > stallMs;
}

const progressOf = async (m: ArtifactMirror, key: string): Promise<MirrorProgress | undefined> => {
  const body = await m.store.get(key).catch(() => undefined);
  if (!body) return undefined;
  try {
    return JSON.parse(body.toString("utf8")) as MirrorProgress;
  } catch {
    return undefined;
  }
};

/** A non-leader: the leader's copy once it is there, or undefined when the leader failed or stopped moving. */
async function awaitLeaderCopy(
  a: EngineArtifact,
  file: string,
  expected: string,
  m: ArtifactMirror,
): Promise<string | undefined> {
  const key = artifactKey(m.runId, expected, a.name);
  const progressKey = artifactProgressKey(m.runId, expected, a.name);
  const fromMirror = async () => (await m.store.download(key, file)) && (await hashFile(file, a.checksum)) === expected;
  let wait: MirrorWait = { since: Date.now(), lastMove: Date.now() };
  for (let look = 0; ; look++) {
    // The progress first: "mirrored" read before a failed try means the copy itself is unusable.
    const progress = await progressOf(m, progressKey);
    if (await fromMirror().catch(() => false))
      return look > 0 ? "the run's bucket (the leader's copy)" : "the run's bucket";
    wait = observeLeader(wait, progress, Date.now());
    if (giveUpOnLeader(wait, Date.now(), m.waitMs ?? 10 * 60_000)) return undefined;
    await new Promise((r) => setTimeout(r, m.pollMs ?? 10_000));
  }
}

/** The leader: the vendor's download, its progress reported beside the mirror key, then the copy mirrored. */
async function leaderDownload(a: EngineArtifact, file: string, expected: string, m: ArtifactMirror): Promise<string> {
  const progressKey = artifactProgressKey(m.runId, expected, a.name);
  const report = (p: MirrorProgress) =>
    m.store.put(progressKey, JSON.stringify(p), "application/json").catch(() => undefined);
  let last = 0;
  await report({ state: "downloading", bytes: 0, at: new Date().toISOString() });
  const failed = (err: unknown) =>
    report({ state: "failed", bytes: 0, at: new Date().toISOString(), reason: (err as Error).message });
  try {
    const actual = await withRetries(`download of ${a.name}`, () =>
      download(a.url, file, a.checksum, (bytes) => {
        if (Date.now() - last < (m.progressEveryMs ?? 15_000)) return;
        last = Date.now();
        void report({ state: "downloading", bytes, at: new Date().toISOString() });
      }),
    );
    if (actual !== expected) throw digestMismatch(a, actual, expected);
  } catch (err) {
    await failed(err);
    throw err;
  }
  try {
    await m.store.upload(artifactKey(m.runId, expected, a.name), file, "application/octet-stream");
  } catch (err) {
    // The leader has its copy; the others stop waiting and download for themselves.
    await failed(err);
    return `${a.url} (not mirrored: ${(err as Error).message})`;
  }
  await report({ state: "mirrored", bytes: statSync(file).size, at: new Date().toISOString() });
  return `${a.url} (mirrored to the run's bucket for the other nodes)`;
}

const digestMismatch = (a: EngineArtifact, actual: string, expected: string) =>
  Object.assign(
    new Error(
      `${a.name}: ${a.checksum.toUpperCase()} ${actual.slice(0, 16)}... does not match the expected ${expected.slice(0, 16)}...`,
    ),
    { permanent: true },
  );

/** Gets the artifact into `file`, from the mirror when it has it, else from the vendor; returns where from. */
async function fetchArtifact(
  a: EngineArtifact,
  file: string,
  expected: string,
  mirror?: ArtifactMirror,
): Promise<string> {
  if (mirror?.leader) {
    const key = artifactKey(mirror.runId, expected, a.name);
    if ((await mirror.store.download(key, file).catch(() => false)) && (await hashFile(file, a.checksum)) === expected)
      return "the run's bucket";
    return leaderDownload(a, file, expected, mirror);
  }
  if (mirror) {
    const from = await awaitLeaderCopy(a, file, expected, mirror);
    if (from) return from;
  }
  const actual = await withRetries(`download of ${a.name}`, () => download(a.url, file, a.checksum));
  if (actual !== expected) throw digestMismatch(a, actual, expected);
  return mirror ? `${a.url} (the leader's download failed or stalled)` : a.url;
}

/**
 * The digest an artifact must have: the one pinned in the repository (engines/artifact-digests.ts), which the
 * vendor's published digest must agree with; an artifact not pinned yet is checked against the vendor's alone, and
 * the status says so.
 */
async function expectedDigest(a: EngineArtifact): Promise<{ digest: string; note: string }> {
  const published = await withRetries(`checksum of ${a.name}`, async () => {
    const r = await fetch(a.checksumUrl, { redirect: "follow" });
    if (!r.ok) throw new Error(`GET ${a.checksumUrl}: HTTP ${r.status}`);
    return parseDigest(a, await r.text());
  });
  const pin = pinnedDigest(a.name);
  if (!pin)
    return {
      digest: published,
      note: "not pinned in the repository: checked against the vendor's published digest only",
    };
  if (pin.algorithm !== a.checksum)
    throw Object.assign(new Error(`${a.name}: pinned as ${pin.algorithm}, published as ${a.checksum}`), {
      permanent: true,
    });
  if (pin.digest !== published) {
    throw Object.assign(
      new Error(
        `${a.name}: the vendor publishes ${a.checksum} ${published.slice(0, 16)}..., the repository pins ${pin.digest.slice(0, 16)}... (${pin.source})`,
      ),
      { permanent: true },
    );
  }
  return { digest: pin.digest, note: "pinned in the repository" };
}

/**
 * Puts each artifact in place: downloaded, checked against its expected digest, and unpacked under
 * `installDir/<into>` (a tarball) or installed by the OS package manager (a package, which brings its service); a
 * second boot finds it in place (a marker holds the digest). In a rehearsal, `localArtifacts` (laid out like the
 * unpacked distribution, see localArtifactFolder) stands in for the download and is linked instead.
 * Returns one line per artifact for the status.
 */
export async function installArtifacts(
  artifacts: EngineArtifact[],
  installDir: string,
  localArtifacts?: string,
  mirror?: ArtifactMirror,
): Promise<string[]> {
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
    const { digest: expected, note } = await expectedDigest(a);
    const source = await fetchArtifact(a, file, expected, mirror);
    const actual = expected;
    if (a.kind === "deb") {
      aptInstall([file]);
    } else {
      rmSync(dest, { recursive: true, force: true });
      mkdirSync(dest, { recursive: true });
      const tar = spawnSync("tar", ["-xzf", file, "-C", dest, `--strip-components=${a.stripComponents}`], {
        encoding: "utf8",
      });
      if (tar.status !== 0) throw new Error(`${a.name}: unpacking failed: ${tar.stderr.trim()}`);
    }
    rmSync(file, { force: true });
    writeFileSync(marker, actual);
    notes.push(
      `${a.name}: from ${source}, checked (${a.checksum} ${actual.slice(0, 16)}..., ${note})${a.kind === "deb" ? ", package installed" : ""}`,
    );
  }
  return notes;
}
