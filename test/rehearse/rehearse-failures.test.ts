import { readFileSync } from "node:fs";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, describe, expect, it } from "vitest";
import type { PolicyDocument } from "../../infra/policies.js";
import { NODE_VERSION, UNITS } from "../../infra/user-data.js";
import type { InstanceStatus, RunEnd } from "../../model/instance-status.js";
import { runEndKey, statusLogKey } from "../../model/results-layout.js";
import type { SeamFile } from "../../rehearse/machine.js";
import { type Rehearsal, type RehearsalResult, type RehearseOptions, rehearse } from "../../rehearse/rehearse.js";
import { rehearsalLog } from "../support/rehearsal-log.js";

// Every failure ends the instance (DESIGN.md "One boot path, rehearsed"): each drill boots one client of quickstart
// as an OS container, plants one fault on its path, and expects `failed` in its status (with the log's tail) and the
// machine powered off. The drills run side by side, each with its own emulator, front and loopback /24.
const started: RehearsalResult[] = [];
afterAll(async () => {
  await Promise.all(started.map((r) => r.stop()));
}, 600_000);

interface Drill {
  name: string;
  options: Partial<RehearseOptions>;
}

async function runDrill(
  d: Drill,
  prefix: string,
): Promise<{ result: RehearsalResult; seen: InstanceStatus[]; logTail: string; rehearsal?: Rehearsal }> {
  const seen: InstanceStatus[] = [];
  let held: Rehearsal | undefined;
  const result = await rehearse({
    stack: "quickstart",
    only: ["client-0"],
    noResultsService: true,
    loopbackPrefix: prefix,
    timeoutMs: 8 * 60_000,
    powerOffGraceMs: 60_000,
    log: rehearsalLog(`drill-${d.name}`),
    ...d.options,
    onStatus: (s, r) => {
      held = r;
      if (s.instance === "client-0") seen.push(s);
    },
  });
  started.push(result);
  const { emulator, bucket } = result.internals!;
  const s3 = emulator.s3();
  const logTail = await s3
    .send(new GetObjectCommand({ Bucket: bucket, Key: statusLogKey(result.runId, "client-0") }))
    .then((o) => o.Body!.transformToString())
    .catch(() => "");
  s3.destroy();
  return { result, seen, logTail, ...(held ? { rehearsal: held } : {}) };
}

/** quickstart on 1 node and 2 clients; client 1's metadata service announces its Spot interruption in workload A. */
async function spotDrill(prefix: string): Promise<{ result: RehearsalResult; end: RunEnd; noticeAt: number }> {
  let noticeAt = 0;
  const result = await rehearse({
    stack: "quickstart",
    clients: 2,
    noResultsService: true,
    loopbackPrefix: prefix,
    timeoutMs: 15 * 60_000,
    log: rehearsalLog("drill-spot"),
    onStatus: (s, r) => {
      if (s.instance === "client-1" && s.stage === "running" && s.phase?.name === "a" && !noticeAt) {
        noticeAt = Date.now();
        r.metadata.interrupt("client-1");
      }
    },
  });
  started.push(result);
  const { emulator, bucket } = result.internals!;
  const s3 = emulator.s3();
  const end = JSON.parse(
    await (
      await s3.send(new GetObjectCommand({ Bucket: bucket, Key: runEndKey(result.runId) }))
    ).Body!.transformToString(),
  ) as RunEnd;
  s3.destroy();
  return { result, end, noticeAt };
}

/**
 * Ctrl-C of `ycsb-lab rehearse` once its three machines run user-data: it stops every machine it booted (a clean
 * shutdown), says so, exits 130, and leaves no machine, mount or disk behind.
 */
async function interruptDrill(prefix: string): Promise<{ code: number | null; err: string; leftovers: string[] }> {
  const { spawn, execFileSync } = await import("node:child_process");
  const { REPO_ROOT } = await import("../../runner/java-artifacts.js");
  const child = spawn(
    process.execPath,
    [`${REPO_ROOT}/bin/ycsb-lab.js`, "rehearse", "--stack", "quickstart", "--clients", "2", "--loopback", prefix],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // The command builds its own kit first (a Maven build on a fresh machine), so the wait is the test's own limit.
  const deadline = Date.now() + 780_000;
  while (
    (err.match(/ booting: installing OS packages/g) ?? []).length < 3 &&
    child.exitCode === null &&
    Date.now() < deadline
  )
    await new Promise((r) => setTimeout(r, 500));
  if ((err.match(/ booting: installing OS packages/g) ?? []).length < 3) {
    child.kill("SIGKILL");
    throw new Error(`rehearse never had its three machines installing OS packages; it said:\n${err.slice(-3000)}`);
  }
  child.kill("SIGINT");
  const code = await exited;
  const run = /rehearse quickstart: run (\S+),/.exec(err)?.[1] ?? "no run";
  const leftovers = [
    ...execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l.includes("systemd-nspawn") && l.includes(run)),
    ...execFileSync("cat", ["/proc/mounts"], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l.includes(run)),
    ...execFileSync("losetup", ["--list", "--noheadings", "--output", "BACK-FILE"], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l.includes(run)),
  ];
  return { code, err, leftovers };
}

/** A unit that holds dpkg's lock for 40 s from early boot, as cloud-init's or unattended-upgrades' apt runs may. */
const HOLD_DPKG_LOCK: SeamFile[] = [
  {
    path: "/etc/systemd/system/drill-dpkg-lock.service",
    content: `[Unit]
Description=drill: hold dpkg's frontend lock for 40 s at first boot
Before=cloud-final.service
[Service]
ExecStart=/usr/bin/python3 -c "import fcntl, time; f = open('/var/lib/dpkg/lock-frontend', 'w'); fcntl.lockf(f, fcntl.LOCK_EX); open('/root/drill-lock', 'w').write(str(time.time())); time.sleep(40); open('/root/drill-lock', 'a').write(' ' + str(time.time()))"
[Install]
WantedBy=multi-user.target
`,
  },
  {
    path: "/etc/systemd/system/multi-user.target.wants/drill-dpkg-lock.service",
    content: "",
    symlink: "/etc/systemd/system/drill-dpkg-lock.service",
  },
];

/**
 * The service's command fails at once, every time (a drop-in over the unit user-data writes): systemd restarts it
 * until its start limit and gives up; the unit's OnFailure= must report `failed` before the power-off.
 */
const FAILING_SERVICE: SeamFile[] = [
  {
    path: `/etc/systemd/system/${UNITS.service}.d/drill.conf`,
    content: `[Service]
ExecStart=
ExecStart=/bin/bash -c 'echo "drill: Error: the boot command cannot start" >&2; exit 1'
RestartSec=2
`,
  },
];

/** The user-data with its maxHours deadline replaced by `seconds` after the first boot (the drill's one edit). */
function shortenLifetime(userData: string, seconds: number): string {
  const byHours = /by_hours=\$\(\( \$\(date \+%s\) \+ \d+ \)\)/;
  if (!byHours.test(userData)) throw new Error("brake drill: the user-data has no maxHours deadline to shorten");
  return userData.replace(byHours, `by_hours=$(( $(date +%s) + ${seconds} ))`);
}

const failedStatus = (seen: InstanceStatus[]) => seen.find((s) => s.stage === "failed");

describe("every failure ends the instance (OS rehearsal, failure injection), side by side", () => {
  it("bad Node.js checksum, unreachable mirror, dpkg lock held then a tampered kit, a denied S3 read, a service systemd gives up on, the brake, a Spot notice, Ctrl-C", async () => {
    const drills: Drill[] = [
      {
        name: "node-checksum",
        options: {
          beforeBoot: (r) =>
            r.front.setFault((url) =>
              url.endsWith("/SHASUMS256.txt")
                ? `${"0".repeat(64)}  node-v${NODE_VERSION}-linux-x64.tar.xz\n`
                : undefined,
            ),
        },
      },
      // The mirror cannot be reached (a subnet with no way out): apt-get update fails instead of warning.
      {
        name: "apt",
        options: {
          seam: (_i, files) =>
            files.map((f) =>
              f.path === "/etc/hosts" ? { ...f, content: `${f.content}127.0.121.9 deb.debian.org\n` } : f,
            ),
        },
      },
      {
        name: "dpkg-lock-then-kit",
        options: {
          seam: (_i, files) => [...files, ...HOLD_DPKG_LOCK],
          beforeBoot: async (r) => {
            const s3 = r.emulator.s3();
            const key = r.stack.uploads.find((u) => u.key.startsWith("kits/"))!.key;
            await s3.send(new PutObjectCommand({ Bucket: r.bucket, Key: key, Body: "not the kit the stack built" }));
            s3.destroy();
          },
        },
      },
      {
        name: "s3-denied",
        options: {
          beforeBoot: async (r) => {
            const role = r.stack.instances.find((i) => i.role === "client")!.roleName;
            const policy = r.stack.policies.get(role)!;
            // The role without its read of the kit: S3 answers 403 (AccessDenied), and the boot must say so and end.
            const narrowed: PolicyDocument = {
              ...policy,
              Statement: policy.Statement.filter((s) => s.Sid !== "ReadKit"),
            };
            await r.emulator.setPolicy(role, narrowed);
          },
        },
      },
      // A healthy client whose cluster never comes: the brake powers it off. The preview refuses a maxHours below the
      // run's estimate (infra/lifetime.ts), so the drill shortens the checked lifetime in the user-data's one line
      // that adds it to the first boot's clock: 72 s instead of twice the estimate.
      {
        name: "brake",
        options: {
          seam: (_i, files) =>
            files.map((f) =>
              f.path.endsWith("/nocloud/user-data") ? { ...f, content: shortenLifetime(f.content, 72) } : f,
            ),
        },
      },
      { name: "service-gives-up", options: { seam: (_i, files) => [...files, ...FAILING_SERVICE] } },
    ];
    const [outcomes, spot, interrupted] = await Promise.all([
      Promise.all(drills.map((d, i) => runDrill(d, `127.0.${120 + i}`))),
      spotDrill("127.0.126"),
      interruptDrill("127.0.127"),
    ]);
    // Ctrl-C: every machine stopped, said so, nothing left behind.
    expect(interrupted.code).toBe(130);
    expect(interrupted.err).toMatch(
      /rehearse: interrupted \(Ctrl-C\): stopping 3 instance\(s\): node-0, client-0, client-1/,
    );
    expect(interrupted.err).toMatch(/rehearse: interrupted \(Ctrl-C\): every instance stopped/);
    expect(interrupted.leftovers).toEqual([]);
    const [checksum, apt, lock, denied, brake, givesUp] = outcomes;
    // A Spot interruption notice on client 1 mid-phase ends the run (incomplete) within two minutes; the fleet powers off.
    expect(spot.end.complete).toBe(false);
    expect(spot.end.reason).toMatch(/^client-1: Spot interruption notice \(terminate at /);
    expect(Date.parse(spot.end.at) - spot.noticeAt).toBeLessThan(120_000);
    expect(Object.values(spot.result.machines)).toEqual(["powered off", "powered off", "powered off"]);
    for (const o of [checksum!, apt!, lock!, denied!, givesUp!]) {
      // The status says failed, the log's tail is beside it, and the machine powered itself off.
      expect(failedStatus(o.seen)?.logTail).toBe(true);
      expect(o.result.machines["client-0"]).toBe("powered off");
    }
    expect(failedStatus(checksum!.seen)?.detail).toMatch(/user-data failed at line \d+: sha256sum -c node\.sha256/);
    expect(checksum!.logTail).toMatch(/FAILED/);
    expect(failedStatus(apt!.seen)?.detail).toMatch(
      /user-data failed at line \d+: apt-get -q -o DPkg::Lock::Timeout=600 --error-on=any update/,
    );
    expect(failedStatus(denied!.seen)?.detail).toMatch(/user-data failed at line \d+: s3 get .*kits\//);
    expect(denied!.logTail).toMatch(/HTTP 403/);
    // The lock was held when apt started: apt waited for it (instead of failing), and the boot went on to the kit.
    const [heldAt, releasedAt] = readFileSync(lock!.rehearsal!.instance("client-0").path("/root/drill-lock"), "utf8")
      .trim()
      .split(" ")
      .map(Number);
    const aptStarted = lock!.seen.find((s) => s.detail === "installing OS packages")!;
    const nodeStarted = lock!.seen.find((s) => s.detail === `installing Node.js ${NODE_VERSION}`)!;
    expect(Date.parse(aptStarted.at) / 1000).toBeLessThan(releasedAt!);
    expect(Date.parse(aptStarted.at) / 1000).toBeGreaterThan(heldAt! - 1);
    expect(Date.parse(nodeStarted.at) / 1000).toBeGreaterThanOrEqual(releasedAt! - 1);
    expect(failedStatus(lock!.seen)?.detail).toMatch(
      /user-data failed at line \d+: sha256sum -c --quiet <<< "[0-9a-f]{64} {2}\$YCSB_LAB_HOME\/kit\.tar\.gz"/,
    );
    // systemd gave up on the service after its restarts: reported with the command's own error, its journal as the tail.
    expect(failedStatus(givesUp!.seen)?.detail).toMatch(
      /^ycsb-lab\.service failed for good after \d+ restart\(s\) \(exit status 1\): drill: Error: the boot command cannot start$/,
    );
    expect(givesUp!.logTail).toMatch(/drill: Error: the boot command cannot start/);
    // The brake: no failure, just the lifetime's end, 72 s after the first boot (the timer's accuracy is a minute).
    const machine = brake!.rehearsal!.instance("client-0");
    expect(readFileSync(machine.path("/etc/systemd/system/ycsb-lab-brake.timer"), "utf8")).toMatch(
      /^OnCalendar=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/m,
    );
    expect(failedStatus(brake!.seen)).toBeUndefined();
    expect(machine.endedAt! - machine.bootedAt!).toBeGreaterThan(70_000);
    // Whatever the machine was doing then (still installing on a busy host, or waiting for its cluster).
    expect(["booting", "installed", "waiting"]).toContain(brake!.seen.at(-1)?.stage);
    expect(brake!.result.machines["client-0"]).toBe("powered off");
  }, 1_080_000);
});
