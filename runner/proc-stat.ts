import { readFile } from "node:fs/promises";

/** CPU jiffies of the aggregate "cpu" line of /proc/stat (proc(5)). */
export interface CpuTimes {
  total: number;
  idle: number;
  steal: number;
}

/** Parse the first "cpu " line: user nice system idle iowait irq softirq steal (guest time is inside user). */
export function parseProcStat(text: string): CpuTimes {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) throw new Error('/proc/stat: no aggregate "cpu" line');
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (f.length < 4 || f.some((n) => !Number.isFinite(n))) throw new Error(`/proc/stat: unreadable cpu line "${line}"`);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal };
}

/** Busy and steal percentages between two readings. */
export function cpuBetween(a: CpuTimes, b: CpuTimes): { cpuPct: number; stealPct: number } {
  const dt = b.total - a.total;
  if (dt <= 0) return { cpuPct: 0, stealPct: 0 };
  return { cpuPct: (100 * (dt - (b.idle - a.idle))) / dt, stealPct: (100 * (b.steal - a.steal)) / dt };
}

export interface ResourceSample {
  tSec: number;
  cpuPct: number;
  stealPct: number;
  load1?: number;
}

/** Samples the machine's CPU and steal once per interval while a phase runs. */
export class ResourceSampler {
  readonly samples: ResourceSample[] = [];
  private timer?: NodeJS.Timeout;
  private last?: CpuTimes;
  private started = 0;

  constructor(private readonly intervalMs = 1000) {}

  async start(): Promise<void> {
    this.started = Date.now();
    this.last = await readCpu();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const now = await readCpu().catch(() => undefined);
    if (!now || !this.last) return;
    const load1 = Number((await readFile("/proc/loadavg", "utf8").catch(() => "")).split(" ")[0]);
    this.samples.push({
      tSec: (Date.now() - this.started) / 1000,
      ...cpuBetween(this.last, now),
      ...(Number.isFinite(load1) ? { load1 } : {}),
    });
    this.last = now;
  }

  stop(): ResourceSample[] {
    if (this.timer) clearInterval(this.timer);
    return this.samples;
  }
}

async function readCpu(): Promise<CpuTimes> {
  return parseProcStat(await readFile("/proc/stat", "utf8"));
}
