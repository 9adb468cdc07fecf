import type { InstanceStatus } from "../model/instance-status.js";

/** One rehearsed instance as the watch sees it: its name and whether its container still runs. */
export interface WatchedMachine {
  readonly name: string;
  readonly running: boolean;
}

export interface StatusWatch {
  machines: readonly WatchedMachine[];
  /** The instances' statuses as stored now (a failed read keeps the last ones). */
  poll: () => Promise<Map<string, InstanceStatus>>;
  /** Called once per new status, oldest first. */
  onStatus: (s: InstanceStatus) => void | Promise<void>;
  deadline: number;
  intervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export interface WatchEnd {
  statuses: Map<string, InstanceStatus>;
  timedOut: boolean;
}

/**
 * Polls every instance's status until every client is done or failed, or its machine is gone; a drill that boots no
 * client ends with the machines it booted. A machine writes its last status (failed, done) and then powers off, so
 * which machines still run is read before the poll: a machine seen stopped has its last status in the poll that
 * follows. Read after the poll, a machine that failed and powered off between the two would end the watch with its
 * `failed` never delivered.
 */
export async function watchStatuses(w: StatusWatch): Promise<WatchEnd> {
  const sleep = w.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = w.now ?? Date.now;
  const delivered = new Map<string, string>();
  const clients = w.machines.filter((m) => m.name.startsWith("client-"));
  const watched = clients.length > 0 ? clients : w.machines;
  let statuses = new Map<string, InstanceStatus>();
  for (;;) {
    const stopped = new Set(watched.filter((m) => !m.running).map((m) => m.name));
    statuses = await w.poll().catch(() => statuses);
    for (const s of [...statuses.values()].sort((a, b) => a.at.localeCompare(b.at))) {
      const key = `${s.stage}|${s.phase?.position ?? ""}|${s.at}|${s.detail ?? ""}`;
      if (delivered.get(s.instance) === key) continue;
      delivered.set(s.instance, key);
      await w.onStatus(s);
    }
    const over = (m: WatchedMachine) =>
      stopped.has(m.name) || ["done", "failed"].includes(statuses.get(m.name)?.stage ?? "");
    if (watched.every(over)) return { statuses, timedOut: false };
    if (now() > w.deadline) return { statuses, timedOut: true };
    await sleep(w.intervalMs ?? 2000);
  }
}
