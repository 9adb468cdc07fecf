import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineArtifact } from "../../../engines/runtime.js";
import {
  installArtifacts,
  localArtifactFolder,
  parseSha256File,
  parseSha512File,
} from "../../../runner/boot/engine-install.js";
import { httpServes } from "../../../runner/boot/processes.js";
import { FolderStore } from "../../../runner/results-store.js";

// How a data node checks and places its engine's artifacts (runner/boot/engine-install.ts).
const tarball = (into: string): EngineArtifact => ({
  name: `${into}.tar.gz`,
  url: `https://example.org/${into}.tar.gz`,
  checksumUrl: `https://example.org/${into}.tar.gz.sha512`,
  checksum: "sha512",
  into,
  stripComponents: 1,
});

describe("published digests", () => {
  it("reads a .sha256 as MongoDB and Couchbase publish it, and refuses one without a digest", () => {
    const hex = "60c76f5ddc412b202a79ee927010cb0ede334cb7e6849429dd00bc0d7f1ffbcc";
    expect(parseSha256File(`${hex}  couchbase-server-community_7.6.2-linux_amd64.deb\n`)).toBe(hex);
    expect(parseSha256File(`${hex.toUpperCase()}\n`)).toBe(hex);
    expect(() => parseSha256File("<html>Not Found</html>")).toThrow(/no SHA-256 digest/);
    // A SHA-512 digest is not a SHA-256 one that happens to start the same way.
    expect(() => parseSha256File(`${hex}${hex}  file.tgz`)).toThrow(/no SHA-256 digest/);
    expect(parseSha512File(`hadoop-3.4.1.tar.gz: ${"AB12 ".repeat(32)}`)).toBe("ab12".repeat(32));
  });
});

describe("local artifacts in a rehearsal", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ycsb-lab-artifacts-"));
    await mkdir(join(dir, "hadoop"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("takes the folder itself for an engine of one artifact, and one subfolder per artifact for an engine of several", () => {
    expect(localArtifactFolder([tarball("cassandra")], tarball("cassandra"), dir)).toBe(dir);
    const hbase = [tarball("hadoop"), tarball("hbase")];
    expect(localArtifactFolder(hbase, hbase[0]!, dir)).toBe(join(dir, "hadoop"));
    expect(() => localArtifactFolder(hbase, hbase[1]!, dir)).toThrow(
      /has no hbase\/ \(an engine of several artifacts needs one folder per artifact: hadoop\/, hbase\/\)/,
    );
  });

  it("cannot swap a package that installs a system service: it names the stand-in instead", () => {
    const deb: EngineArtifact = { ...tarball("couchbase"), kind: "deb", checksum: "sha256", stripComponents: 0 };
    expect(() => localArtifactFolder([deb], deb, dir)).toThrow(
      /a package cannot be swapped for local artifacts .*its stand-in \(YCSB_LAB_STAND_IN\)/,
    );
  });
});

describe("a packaged service's health (Couchbase's REST, runner/boot/processes.ts)", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.statusCode = Number(req.url!.slice(1));
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("counts a server as up while it answers below 500, credentials asked included, and down when it errs or is gone", async () => {
    expect(await httpServes(`http://127.0.0.1:${port}/200`)).toBe(true);
    expect(await httpServes(`http://127.0.0.1:${port}/401`)).toBe(true);
    expect(await httpServes(`http://127.0.0.1:${port}/503`)).toBe(false);
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const closed = (gone.address() as { port: number }).port;
    await new Promise((r) => gone.close(r));
    expect(await httpServes(`http://127.0.0.1:${closed}/200`)).toBe(false);
  });
});

/** A vendor's slow link: the body a few bytes at a time, for about 2 seconds. */
function trickle(res: import("node:http").ServerResponse, body: Buffer): void {
  res.writeHead(200, { "content-length": body.length });
  const step = Math.max(1, Math.ceil(body.length / 40));
  let at = 0;
  const timer = setInterval(() => {
    res.write(body.subarray(at, at + step));
    at += step;
    if (at >= body.length) {
      clearInterval(timer);
      res.end();
    }
  }, 50);
}

describe("engine downloads mirrored in the run's bucket: one vendor download for the whole cluster", () => {
  let server: Server;
  let vendor: string;
  const hits: Record<string, number> = {};
  let work: string;
  let archive: Buffer;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "ycsb-lab-mirror-"));
    // A real tarball (GNU tar) of a tiny distribution, served with its .sha512 like archive.apache.org does.
    await mkdir(join(work, "src", "engine-1.0", "lib"), { recursive: true });
    writeFileSync(join(work, "src", "engine-1.0", "lib", "engine.jar"), "jar bytes");
    execFileSync("tar", ["-czf", join(work, "engine-1.0.tar.gz"), "-C", join(work, "src"), "engine-1.0"]);
    archive = readFileSync(join(work, "engine-1.0.tar.gz"));
    const digest = createHash("sha512").update(archive).digest("hex");
    // A forged distribution under a pinned name, with a digest file that matches it (both from the same origin).
    const forged = Buffer.concat([archive, Buffer.from("forged")]);
    const forgedDigest = createHash("sha512").update(forged).digest("hex");
    server = createServer((req, res) => {
      hits[req.url!] = (hits[req.url!] ?? 0) + 1;
      if (req.url === "/engine-1.0.tar.gz") res.end(archive);
      else if (req.url === "/engine-1.0.tar.gz.sha512") res.end(`${digest}  engine-1.0.tar.gz\n`);
      else if (req.url === "/slow/engine-1.0.tar.gz") trickle(res, archive);
      else if (req.url === "/slow/engine-1.0.tar.gz.sha512") res.end(`${digest}  engine-1.0.tar.gz\n`);
      else if (req.url === "/apache-cassandra-5.0.4-bin.tar.gz") res.end(forged);
      else if (req.url === "/apache-cassandra-5.0.4-bin.tar.gz.sha512")
        res.end(`${forgedDigest}  apache-cassandra-5.0.4-bin.tar.gz\n`);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    vendor = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await rm(work, { recursive: true, force: true });
  });

  it("the leader downloads and mirrors; the others take the leader's copy; a copy that does not match the vendor's digest is refused", async () => {
    const artifact: EngineArtifact = {
      name: "engine-1.0.tar.gz",
      url: `${vendor}/engine-1.0.tar.gz`,
      checksumUrl: `${vendor}/engine-1.0.tar.gz.sha512`,
      checksum: "sha512",
      into: "engine",
      stripComponents: 1,
    };
    const store = new FolderStore(join(work, "bucket"));
    const install = (node: number, leader: boolean) =>
      installArtifacts([artifact], join(work, `node-${node}`), undefined, {
        store,
        runId: "r1",
        leader,
        pollMs: 50,
        waitMs: 2_000,
      });
    // The follower starts first and waits for the leader's copy.
    const [follower, leader] = await Promise.all([
      install(1, false),
      new Promise((r) => setTimeout(r, 200)).then(() => install(0, true)),
    ]);
    expect(leader[0]).toMatch(/from http:\/\/127\.0\.0\.1:\d+\/engine-1\.0\.tar\.gz \(mirrored to the run's bucket/);
    expect(follower[0]).toMatch(/from the run's bucket \(the leader's copy\)/);
    expect(hits["/engine-1.0.tar.gz"]).toBe(1);
    expect(readFileSync(join(work, "node-1", "engine", "lib", "engine.jar"), "utf8")).toBe("jar bytes");
    // A later node finds a mirrored copy that was tampered with: refused, fetched from the vendor instead.
    const key = (await store.list("artifacts/r1/")).find((k) => k.endsWith(".tar.gz"))!;
    await store.put(key, "not the archive");
    const third = await install(2, false);
    expect(third[0]).toMatch(/from http:\/\/127\.0\.0\.1/);
    expect(hits["/engine-1.0.tar.gz"]).toBe(2);
  });

  it("a follower waits as long as the leader's download moves, past its stall limit, and takes the leader's copy", async () => {
    const artifact: EngineArtifact = {
      name: "engine-1.0.tar.gz",
      url: `${vendor}/slow/engine-1.0.tar.gz`,
      checksumUrl: `${vendor}/slow/engine-1.0.tar.gz.sha512`,
      checksum: "sha512",
      into: "engine",
      stripComponents: 1,
    };
    const store = new FolderStore(join(work, "slow-bucket"));
    const install = (node: number, leader: boolean) =>
      installArtifacts([artifact], join(work, `slow-node-${node}`), undefined, {
        store,
        runId: "r2",
        leader,
        pollMs: 50,
        waitMs: 500,
        progressEveryMs: 50,
      });
    // The leader's vendor download takes about 2 s: four times the follower's limit without movement.
    const [leader, follower] = await Promise.all([
      install(0, true),
      new Promise((r) => setTimeout(r, 100)).then(() => install(1, false)),
    ]);
    expect(leader[0]).toMatch(/mirrored to the run's bucket/);
    expect(follower[0]).toMatch(/from the run's bucket \(the leader's copy\)/);
    expect(hits["/slow/engine-1.0.tar.gz"]).toBe(1);
    // The mirror is the run's own: another run's nodes find nothing of it.
    expect((await store.list("artifacts/")).every((k) => k.startsWith("artifacts/r2/"))).toBe(true);
  });

  it("an artifact pinned in the repository is refused when the vendor serves another file with a digest to match", async () => {
    const name = "apache-cassandra-5.0.4-bin.tar.gz";
    const artifact: EngineArtifact = {
      name,
      url: `${vendor}/${name}`,
      checksumUrl: `${vendor}/${name}.sha512`,
      checksum: "sha512",
      into: "cassandra",
      stripComponents: 1,
    };
    await expect(installArtifacts([artifact], join(work, "pinned-node"))).rejects.toThrow(
      /apache-cassandra-5\.0\.4-bin\.tar\.gz: the vendor publishes sha512 [0-9a-f]{16}\.\.\., the repository pins 16de8bb78af94dab/,
    );
    expect(hits[`/${name}`] ?? 0).toBe(0);
  });
});
