import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { type InstanceKitParts, instanceKitFiles, writeKitArchive } from "../../kit/assemble.js";
import {
  type DriverPins,
  parseDriverPins,
  pinFileName,
  pinPath,
  pinProblems,
  readDriverPins,
  sha256Of,
} from "../../kit/driver-pins.js";
import { storedGzip } from "../../kit/gzip.js";
import { artifactUrl, fetchPinned } from "../../kit/maven.js";

/**
 * The pure parts of a kit built from the @ycsb-lab/cli package (kit/from-package.ts): the archive's bytes, the
 * drivers' pins, and a pinned download from a Maven repository (a file: URL here; the tarball install and a loopback
 * repository are test/kit/consumer-example.test.ts).
 */
const work = mkdtempSync(join(tmpdir(), "ycsb-lab-kit-assembly-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const jar = (name: string, text: string) => ({ name, data: Buffer.from(text) });
const pin = (artifactId: string, data: string, classifier?: string) => ({
  groupId: "org.example.drivers",
  artifactId,
  version: "1.2.3",
  ...(classifier ? { classifier } : {}),
  sha256: sha256Of(Buffer.from(data)),
});

describe("storedGzip", () => {
  it("is a gzip any tool reads back, with no platform or time in its header", () => {
    // Over three stored blocks (65,535 bytes each) and a short last one.
    const data = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31) % 251));
    const gz = storedGzip(data);
    expect(gunzipSync(gz).equals(data)).toBe(true);
    expect([...gz.subarray(4, 10)]).toEqual([0, 0, 0, 0, 0, 0xff]);
    expect(gunzipSync(storedGzip(new Uint8Array(0))).length).toBe(0);
  });

  it("gives the same bytes for the same input, whatever part of a larger buffer it comes from", () => {
    const data = Buffer.from("kit contents ".repeat(10_000));
    const inside = Buffer.concat([Buffer.from("xx"), data, Buffer.from("yy")]).subarray(2, 2 + data.length);
    expect(storedGzip(inside).equals(storedGzip(data))).toBe(true);
  });
});

describe("instanceKitFiles and writeKitArchive", () => {
  const parts: InstanceKitParts = {
    cli: Buffer.from("console.log('cli')"),
    version: "9.9.9",
    ycsbCore: [jar("core-0.17.0.jar", "core")],
    hdr: [jar("HdrHistogram-2.1.12.jar", "hdr")],
    bindings: [
      { module: "cassandra", jars: [jar("ycsb-lab-binding-cassandra-0.1.0.jar", "ours"), jar("driver-1.jar", "d")] },
    ],
  };

  it("lays a kit out as runner/kit-layout.ts reads it, the manifest naming the bindings", () => {
    const files = instanceKitFiles(parts);
    expect(files.map((f) => f.path)).toEqual([
      "bin/ycsb-lab.mjs",
      "kit.json",
      "java/ycsb/core/core-0.17.0.jar",
      "java/ycsb/hdr-2.1.12/HdrHistogram-2.1.12.jar",
      "java/bindings/cassandra/ycsb-lab-binding-cassandra-0.1.0.jar",
      "java/bindings/cassandra/driver-1.jar",
    ]);
    expect(JSON.parse(Buffer.from(files[1]!.data).toString())).toEqual({
      kitFormat: 1,
      name: "ycsb-lab",
      version: "9.9.9",
      bindings: ["cassandra"],
    });
    expect(files[0]!.executable).toBe(true);
  });

  it("names the archive by its SHA-256, the same parts giving the same file", () => {
    const a = writeKitArchive("cassandra", instanceKitFiles(parts), join(work, "a"));
    const b = writeKitArchive("cassandra", instanceKitFiles(parts), join(work, "b"));
    expect(a.sha256).toBe(sha256Of(readFileSync(a.path)));
    expect(b.sha256).toBe(a.sha256);
    expect(a.path).toBe(join(work, "a", `ycsb-lab-kit-cassandra-${a.sha256.slice(0, 12)}.tar.gz`));
    const other = writeKitArchive("cassandra", instanceKitFiles({ ...parts, version: "9.9.10" }), join(work, "a"));
    expect(other.sha256).not.toBe(a.sha256);
  });
});

describe("driver pins", () => {
  it("the committed pins parse, and pin each binding module's drivers but never our own jars", () => {
    const pins = readDriverPins();
    expect(Object.keys(pins.modules).sort()).toEqual(["cassandra", "couchbase", "hbase", "mongodb"]);
    for (const list of Object.values(pins.modules)) {
      expect(list.length).toBeGreaterThan(0);
      expect(list.filter((p) => p.artifactId.startsWith("ycsb-lab-binding-"))).toEqual([]);
    }
  });

  it("names what is wrong in a pins file", () => {
    expect(() => parseDriverPins("{", "pins.json")).toThrow(/^pins.json: not JSON/);
    expect(() => parseDriverPins("{}", "pins.json")).toThrow('pins.json: no "modules" object');
    const bad = {
      modules: { cassandra: [{ groupId: "org/evil", artifactId: "a", version: "1", sha256: "0".repeat(64) }] },
    };
    expect(() => parseDriverPins(JSON.stringify(bad), "pins.json")).toThrow(
      'pins.json: modules.cassandra[0].groupId: "org/evil" is not a Maven coordinate',
    );
    const short = { modules: { cassandra: [{ groupId: "g", artifactId: "a", version: "1", sha256: "abc" }] } };
    expect(() => parseDriverPins(JSON.stringify(short), "pins.json")).toThrow(
      "pins.json: modules.cassandra[0].sha256: not 64 hex digits",
    );
  });

  it("lists each driver that differs from its pin: unpinned, other bytes, or missing", () => {
    const pins: DriverPins = { modules: { m: [pin("a", "A"), pin("b", "B"), pin("c", "C", "native")] } };
    expect(pinFileName(pins.modules.m![2]!)).toBe("c-1.2.3-native.jar");
    expect(pinPath(pins.modules.m![0]!)).toBe("org/example/drivers/a/1.2.3/a-1.2.3.jar");
    const ok = [
      jar("ycsb-lab-binding-m-0.1.0.jar", "ours"),
      jar("a-1.2.3.jar", "A"),
      jar("b-1.2.3.jar", "B"),
      jar("c-1.2.3-native.jar", "C"),
    ];
    expect(pinProblems("m", ok, pins)).toEqual([]);
    const wrong = [jar("a-1.2.3.jar", "A"), jar("b-1.2.3.jar", "not B"), jar("d-1.0.jar", "D")];
    expect(pinProblems("m", wrong, pins)).toEqual([
      `m: b-1.2.3.jar has SHA-256 ${sha256Of(Buffer.from("not B"))}, pinned ${pins.modules.m![1]!.sha256}`,
      "m: d-1.0.jar is not pinned",
      "m: c-1.2.3-native.jar is pinned but not in the classpath",
    ]);
  });
});

describe("a pinned download", () => {
  it("refuses a repository that is not an http(s) or file URL", () => {
    expect(() => artifactUrl("ftp://mirror.example/maven2", pin("a", "A"))).toThrow(
      "--maven-repo: ftp: is not https:, http: or file:",
    );
    expect(() => artifactUrl("not a url", pin("a", "A"))).toThrow('--maven-repo: "not a url" is not a URL');
    expect(artifactUrl("https://repo.example/maven2", pin("a", "A")).href).toBe(
      "https://repo.example/maven2/org/example/drivers/a/1.2.3/a-1.2.3.jar",
    );
  });

  it("keeps only the pinned bytes: other bytes are refused and never cached; a tampered cache is fetched again", async () => {
    const repo = join(work, "repo");
    const cacheDir = join(work, "cache");
    const good = pin("a", "A");
    const dir = join(repo, "org", "example", "drivers", "a", "1.2.3");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "a-1.2.3.jar"), "not A");
    await expect(fetchPinned(good, { repository: `file://${repo}`, cacheDir })).rejects.toThrow(
      `has SHA-256 ${sha256Of(Buffer.from("not A"))}, pinned ${good.sha256}: not used`,
    );
    writeFileSync(join(dir, "a-1.2.3.jar"), "A");
    expect((await fetchPinned(good, { repository: `file://${repo}`, cacheDir })).data.toString()).toBe("A");
    writeFileSync(join(cacheDir, `${good.sha256}.jar`), "tampered");
    expect((await fetchPinned(good, { repository: `file://${repo}`, cacheDir })).data.toString()).toBe("A");
    expect(readFileSync(join(cacheDir, `${good.sha256}.jar`), "utf8")).toBe("A");
  });
});
