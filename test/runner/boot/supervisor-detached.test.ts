import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EngineRuntime, NodePaths } from "../../../engines/runtime.js";
import { processAlive, startProcess, stopDetached } from "../../../runner/boot/processes.js";
import {
  type LocalEngineState,
  nodeAlive,
  processesAlive,
  readState,
  stopNode,
  writeState,
} from "../../../runner/local/engine.js";
import { hbaseLocalEngine } from "../../../runner/local/hbase.js";
import { startLocalNodes } from "../../../runner/local/node-engines.js";

/** The one supervisor's detached start: what `ycsb-lab local up` leaves running for `local status` and `local down`. */
describe("the supervisor's detached start", () => {
  let dir: string;
  let pid: number | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "detached-"));
  });
  afterEach(() => {
    if (pid !== undefined) process.kill(pid, "SIGKILL");
    pid = undefined;
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("starts a process that another process finds by pid and command line, and stops it", async () => {
    const spec = {
      name: "sleeper",
      argv: ["sh", "-c", "echo started; exec sleep 30", "marker"],
      cwd: dir,
      listens: [],
    };
    const p = startProcess(spec, dir, { detached: true });
    pid = p.pid;
    const record = { pid: p.pid!, commandMarker: p.commandLine! };
    // What a state file keeps is plain JSON: another `ycsb-lab local` process reads it back.
    const read = JSON.parse(JSON.stringify(record)) as typeof record;
    await expect.poll(() => readFile(join(dir, "sleeper.log"), "utf8")).toContain("started");
    // `exec sleep` replaced the command line: the same pid now runs another command, which is never signalled. The
    // shell writes "started" before it execs, so the new command line is waited for, not assumed at once.
    await expect.poll(() => processAlive({ pid: read.pid, commandMarker: "sleep\u000030" })).toBe(true);
    expect(processAlive(read)).toBe(false);
    await stopDetached({ pid: read.pid, commandMarker: "sleep\u000030" }, 5000);
    expect(processAlive({ pid: read.pid, commandMarker: "sleep\u000030" })).toBe(false);
    pid = undefined;
  });

  it("refuses a command that cannot start instead of recording no pid", () => {
    const spec = { name: "missing", argv: ["/nonexistent/server"], cwd: dir, listens: [] };
    expect(() => startProcess(spec, dir, { detached: true })).toThrow(
      /missing: \/nonexistent\/server could not be started/,
    );
  });
});

/**
 * A local node of several processes (an HBase node's daemons) through the local start: every process recorded in
 * the state, each checked and stopped by pid, and `local down` stopping them all. The processes are `sleep`s so that
 * no JVM is needed; each node's are the runtime's, in order.
 */
describe("a local node of several processes", () => {
  let dir: string;
  let state: LocalEngineState | undefined;
  const localDir = process.env.YCSB_LAB_LOCAL_DIR;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "local-node-"));
    process.env.YCSB_LAB_LOCAL_DIR = dir;
  });
  afterAll(async () => {
    for (const p of state?.nodes.flatMap((n) => n.processes) ?? []) if (processAlive(p)) process.kill(p.pid, "SIGKILL");
    if (localDir === undefined) delete process.env.YCSB_LAB_LOCAL_DIR;
    else process.env.YCSB_LAB_LOCAL_DIR = localDir;
    await rm(dir, { recursive: true, force: true });
  });
  const daemon = (name: string, seconds: number, paths: NodePaths) => ({
    name,
    argv: ["sleep", String(seconds)],
    cwd: paths.run,
    listens: [],
  });
  // Node 1 runs a "master" and a "regionserver", node 2 only a "regionserver" (as HBase's runtime lays them out).
  const runtime = {
    engine: "hbase",
    directories: (_ctx, paths) => [paths.run],
    files: () => [],
    dataDirectories: () => [],
    processes: (ctx, paths) =>
      ctx.index === 0
        ? [daemon("master", 301, paths), daemon("regionserver", 302, paths)]
        : [daemon("regionserver", 303, paths)],
  } as Pick<EngineRuntime, "engine" | "directories" | "files" | "dataDirectories" | "processes"> as EngineRuntime;

  it("records every process of every node in the state, in start order", async () => {
    const nodes = await startLocalNodes({
      runtime,
      cluster: { engine: "hbase", version: "2.5.11", nodes: 2, preset: "balanced", replication: 1, dataDir: dir },
      ports: {},
      timeoutMs: 10_000,
      log: () => {},
    });
    state = { engine: "hbase", preset: "balanced", dataDir: dir, startedAt: "", nodes };
    await writeState(state);
    const read = await readState("hbase");
    expect(read?.nodes.map((n) => n.processes.map((p) => p.name))).toEqual([
      ["master", "regionserver"],
      ["regionserver"],
    ]);
    expect(read?.nodes.map((n) => n.processes.map((p) => p.commandMarker))).toEqual([
      ["sleep\u0000301", "sleep\u0000302"],
      ["sleep\u0000303"],
    ]);
    for (const n of read!.nodes) expect(await nodeAlive(n)).toBe(true);
  });

  it("finds a node down when one of its processes died, naming that one", async () => {
    const [master, regionserver] = state!.nodes[0]!.processes;
    process.kill(regionserver!.pid, "SIGKILL");
    await expect.poll(() => processAlive(regionserver!)).toBe(false);
    expect(await nodeAlive(state!.nodes[0]!)).toBe(false);
    expect(processesAlive(state!.nodes[0]!)).toEqual([
      { name: "master", pid: master!.pid, alive: true },
      { name: "regionserver", pid: regionserver!.pid, alive: false },
    ]);
  });

  it("reads a state file of the one-process-per-node layout as that one process, so `local down` stops it", async () => {
    const old = startProcess({ name: "server", argv: ["sleep", "304"], cwd: dir, listens: [] }, dir, {
      detached: true,
    });
    const node = {
      index: 1,
      address: "127.0.0.1",
      ports: {},
      logDir: dir,
      pid: old.pid,
      commandMarker: old.commandLine,
    };
    const file = join(dir, "mongodb", "state.json");
    await mkdir(join(dir, "mongodb"), { recursive: true });
    await writeFile(file, JSON.stringify({ engine: "mongodb", preset: "balanced", dataDir: dir, nodes: [node] }));
    const read = await readState("mongodb");
    expect(read?.nodes[0]?.processes).toEqual([{ name: "server", pid: old.pid, commandMarker: "sleep\u0000304" }]);
    await stopNode(read!.nodes[0]!, 5000);
    expect(processAlive({ pid: old.pid!, commandMarker: old.commandLine! })).toBe(false);
  });

  it("stops every process of every node on `local down`", async () => {
    await hbaseLocalEngine.down(state!);
    for (const p of state!.nodes.flatMap((n) => n.processes)) expect(processAlive(p), p.name).toBe(false);
    expect(await readState("hbase")).toBeUndefined();
  });
});
