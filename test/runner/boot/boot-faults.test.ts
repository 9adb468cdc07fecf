import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InstanceStatus } from "../../../model/instance-status.js";
import { BarrierError, passBarrier } from "../../../runner/barrier.js";
import { clusterTroubles, rollCall } from "../../../runner/boot/cluster-health.js";
import { attachmentName, fstabLine, instanceStoreFromLsblk, raidCommand } from "../../../runner/boot/os-setup.js";
import { metadataEndpoint } from "../../../runner/boot/spot-watch.js";
import { FolderStore } from "../../../runner/results-store.js";
import { readRunEnd, writeRunEnd } from "../../../runner/run-end.js";

// Fleet faults as facts of the run (issue: a client one barrier ahead waited 65 minutes for a peer that had already
// aborted; a data node that died without a word was never named).
describe("the run's end is a run-level fact every barrier poll sees", () => {
  let store: FolderStore;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "run-end-"));
    store = new FolderStore(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("a client waiting at a later barrier stops at once when another client ends the run, naming its reason", async () => {
    // Client 1 is one barrier ahead (phase 4); client 0 aborts at phase 3, where client 1 never looks again.
    const waiting = passBarrier(
      store,
      "r1",
      { index: 4, name: "b" },
      { client: 1, stepOutcomes: {} },
      { clients: 2, timeoutMs: 60_000, pollMs: 20 },
    );
    const outcome = waiting.then(
      () => "released",
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 100));
    await writeRunEnd(store, "r1", {
      complete: false,
      reason: "data node 1 failed: cassandra exited by signal SIGKILL",
      by: "client-0",
    });
    const err = await outcome;
    expect(err).toBeInstanceOf(BarrierError);
    expect((err as Error).message).toBe(
      "barrier before phase 4 (b): client-0 ended the run: data node 1 failed: cassandra exited by signal SIGKILL",
    );
  });

  it("keeps the first cause: a peer that stops because of it does not overwrite the reason", async () => {
    await writeRunEnd(store, "r2", { complete: false, reason: "data node 2 has been silent for 80 s", by: "client-1" });
    await writeRunEnd(store, "r2", { complete: false, reason: "client-1 ended the run: ...", by: "client-0" });
    expect(await readRunEnd(store, "r2")).toMatchObject({
      complete: false,
      by: "client-1",
      reason: "data node 2 has been silent for 80 s",
    });
  });

  it("a failed data node fails the barrier at once with its reason (runProblem), not after the timeout", async () => {
    const problem = async () => "data node 0 failed at 2026-11-24T10:00:00Z: out of disk";
    await expect(
      passBarrier(
        store,
        "r3",
        { index: 2, name: "a" },
        { client: 0, stepOutcomes: {} },
        { clients: 2, timeoutMs: 60_000, pollMs: 20, runProblem: problem },
      ),
    ).rejects.toThrow("barrier before phase 2 (a): data node 0 failed at 2026-11-24T10:00:00Z: out of disk");
  });

  it("says who it waits for while it waits", async () => {
    const told: number[][] = [];
    const o = { clients: 2, timeoutMs: 200, pollMs: 20, onWait: (missing: number[]) => void told.push(missing) };
    // onWait fires every 30 s; with a 200 ms timeout it must not fire, and the timeout names the missing client.
    await expect(
      passBarrier(store, "r4", { index: 1, name: "load" }, { client: 0, stepOutcomes: {} }, o),
    ).rejects.toThrow(/waiting for client\(s\) 1/);
    expect(told).toEqual([]);
  });
});

describe("a client's view of the cluster's health", () => {
  const node = (index: number, o: Partial<InstanceStatus>): InstanceStatus => ({
    instance: `node-${index}`,
    role: "data",
    index,
    stage: "ready",
    at: "2026-11-24T10:00:00.000Z",
    ...o,
  });
  const now = new Date("2026-11-24T10:02:00.000Z");
  it("names a node that reported its failure, and one that fell silent (its machine is gone)", () => {
    const troubles = clusterTroubles(
      [
        node(0, { heartbeatAt: "2026-11-24T10:01:50.000Z" }),
        node(1, { heartbeatAt: "2026-11-24T10:00:30.000Z" }),
        node(2, { stage: "failed", detail: "cassandra exited with code 1" }),
        { instance: "client-0", role: "client", index: 0, stage: "running", at: "2026-11-24T09:00:00.000Z" },
      ],
      now,
    );
    expect(troubles).toEqual([
      "data node 1 has been silent for 90 s (last seen ready at 2026-11-24T10:00:30.000Z): its machine is gone",
      "data node 2 failed at 2026-11-24T10:00:00.000Z: cassandra exited with code 1",
    ]);
  });
  it("the roll call after failed operations waits for nodes not heard from since the phase ended, or names the silent", () => {
    const phaseEnd = new Date("2026-11-24T10:01:45.000Z");
    const answered = rollCall(
      [node(0, { heartbeatAt: "2026-11-24T10:01:50.000Z" }), node(1, { heartbeatAt: "2026-11-24T10:01:40.000Z" })],
      phaseEnd,
      now,
    );
    expect(answered).toEqual({ troubles: [], waitingFor: [1] });
    const silent = rollCall(
      [node(0, { heartbeatAt: "2026-11-24T10:01:50.000Z" }), node(1, { heartbeatAt: "2026-11-24T10:01:00.000Z" })],
      phaseEnd,
      now,
    );
    expect(silent.troubles).toEqual([
      "data node 1 has been silent for 60 s (last seen ready at 2026-11-24T10:01:00.000Z): its machine is gone",
    ]);
    expect(rollCall([node(0, { heartbeatAt: "2026-11-24T10:01:50.000Z" })], phaseEnd, now)).toEqual({
      troubles: [],
      waitingFor: [],
    });
  });
  it("a node done after the run is not silent", () => {
    expect(clusterTroubles([node(0, { stage: "done" })], now)).toEqual([]);
  });
});

describe("disks as the boot finds them on Nitro", () => {
  it("reads the EBS attachment name from the NVMe controller's vendor data (bytes 3072..3104)", () => {
    const id = Buffer.alloc(4096);
    id.write("/dev/sdf", 3072, "latin1");
    expect(attachmentName(id)).toBe("sdf");
    const spaced = Buffer.alloc(4096, 0);
    spaced.write("sdg                             ", 3072, "latin1");
    expect(attachmentName(spaced)).toBe("sdg");
  });
  it("finds instance-store disks by the model lsblk reports", () => {
    const lsblk =
      "/dev/nvme0n1 Amazon Elastic Block Store\n/dev/nvme1n1 Amazon EC2 NVMe Instance Storage\n/dev/nvme2n1 Amazon EC2 NVMe Instance Storage\n";
    expect(instanceStoreFromLsblk(lsblk)).toEqual(["/dev/nvme1n1", "/dev/nvme2n1"]);
  });
  it("stripes several local disks with mdadm (the rehearsal's kernel has no md driver: covered here)", () => {
    expect(raidCommand(["/dev/nvme1n1", "/dev/nvme2n1"])).toEqual([
      "--create",
      "/dev/md0",
      "--run",
      "--level=0",
      "--raid-devices=2",
      "/dev/nvme1n1",
      "/dev/nvme2n1",
    ]);
  });
  it("mounts by UUID, noatime, nofail (a lost volume never stops a boot)", () => {
    expect(fstabLine("1234-abcd", "/data")).toBe("UUID=1234-abcd /data xfs defaults,noatime,nofail 0 2\n");
  });
});

describe("the Spot interruption watch", () => {
  it("asks the metadata service where the AWS SDKs would, and nowhere when it is disabled", () => {
    expect(metadataEndpoint({})).toBe("http://169.254.169.254");
    expect(metadataEndpoint({ AWS_EC2_METADATA_SERVICE_ENDPOINT: "http://127.0.12.253:8000/" })).toBe(
      "http://127.0.12.253:8000",
    );
    expect(metadataEndpoint({ AWS_EC2_METADATA_DISABLED: "true" })).toBeUndefined();
    // A rehearsal never sends a packet to the link-local address.
    expect(metadataEndpoint({ YCSB_LAB_REHEARSAL: "1" })).toBeUndefined();
  });
});
