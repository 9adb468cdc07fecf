import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineArtifact } from "../engines/runtime.js";
import { createServer, type Server } from "node:http";
import { localArtifactFolder, parseSha256File, parseSha512File } from "../runner/boot/engine-install.js";
import { httpServes } from "../runner/boot/processes.js";

// How a data node checks and places its engine's artifacts (runner/boot/engine-install.ts).
const tarball = (into: string): EngineArtifact => ({ name: `${into}.tar.gz`, url: `https://example.org/${into}.tar.gz`, checksumUrl: `https://example.org/${into}.tar.gz.sha512`, checksum: "sha512", into, stripComponents: 1 });

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
    expect(() => localArtifactFolder(hbase, hbase[1]!, dir)).toThrow(/has no hbase\/ \(an engine of several artifacts needs one folder per artifact: hadoop\/, hbase\/\)/);
  });

  it("cannot swap a package that installs a system service: it names the stand-in instead", () => {
    const deb: EngineArtifact = { ...tarball("couchbase"), kind: "deb", checksum: "sha256", stripComponents: 0 };
    expect(() => localArtifactFolder([deb], deb, dir)).toThrow(/a package cannot be swapped for local artifacts .*its stand-in \(YCSB_LAB_STAND_IN\)/);
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
