/**
 * One PGlite connection, shared fairly between readers and writers. PGlite runs one statement or transaction at a time
 * and queues the rest first come, first served: a POST arriving behind 16 dashboard viewers' aggregate queries waited
 * for all of them (measured: 34.5 s). Here readers and writers wait in two lanes and, when both wait, take turns: a
 * write waits for at most the statement running and one read, never for the whole queue; reads are never starved by
 * a stream of writes either.
 */
export type Lane = "read" | "write";

export class FairQueue {
  private readonly waiting: Record<Lane | "urgent", (() => void)[]> = { read: [], write: [], urgent: [] };
  private busy = false;
  private last: Lane = "write";
  /** When the task running now started (undefined when idle): a busy connection is a live one. */
  private startedAt: number | undefined;

  /**
   * Whether the connection answers (/health): busy on a task that started within `withinMs` (it is working), else a
   * probe taken before every waiting read and write, so it waits for the task running and no other.
   */
  async alive(probe: () => Promise<unknown>, withinMs: number): Promise<void> {
    if (this.startedAt !== undefined && Date.now() - this.startedAt < withinMs) return;
    await this.run("urgent", probe);
  }

  /** Runs `task` when its turn comes; one task at a time. */
  run<T>(lane: Lane | "urgent", task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        let p: Promise<T>;
        try {
          p = task();
        } catch (e) {
          p = Promise.reject(e);
        }
        p.then(resolve, reject).finally(() => this.next());
      };
      this.waiting[lane].push(start);
      if (!this.busy) this.next(true);
    });
  }

  /** Tasks waiting per lane (for tests and diagnostics). */
  get pending(): Record<Lane, number> {
    return { read: this.waiting.read.length, write: this.waiting.write.length };
  }

  private next(idle = false): void {
    if (!idle) {
      this.busy = false;
      this.startedAt = undefined;
    }
    if (this.busy) return;
    if (this.waiting.urgent.length > 0) {
      this.busy = true;
      this.startedAt = Date.now();
      this.waiting.urgent.shift()!();
      return;
    }
    const other: Lane = this.last === "read" ? "write" : "read";
    const lane: Lane | undefined =
      this.waiting[other].length > 0 ? other : this.waiting[this.last].length > 0 ? this.last : undefined;
    if (!lane) return;
    this.busy = true;
    this.startedAt = Date.now();
    this.last = lane;
    this.waiting[lane].shift()!();
  }
}

/** A statement that only reads: everything else (and every transaction) is a write. */
export const laneOf = (sql: string): Lane =>
  /^\s*(SELECT|SHOW|EXPLAIN)\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(sql) ? "read" : "write";

interface PGliteLike {
  query(sql: string, ...rest: unknown[]): Promise<unknown>;
  exec(sql: string, ...rest: unknown[]): Promise<unknown>;
  transaction(fn: (tx: never) => Promise<unknown>): Promise<unknown>;
}

/**
 * The same PGlite with its queries, scripts and transactions taken in turn through `queue` (what the Prisma adapter
 * calls); statements inside a transaction go straight to it (the transaction holds the turn until it ends).
 */
export function fairlyQueued<T extends object>(pglite: T, queue = new FairQueue()): T {
  const db = pglite as unknown as PGliteLike;
  return new Proxy(pglite, {
    get(target, prop, receiver) {
      if (prop === "query")
        return (sql: string, ...rest: unknown[]) => queue.run(laneOf(sql), () => db.query(sql, ...rest));
      if (prop === "exec")
        return (sql: string, ...rest: unknown[]) => queue.run(laneOf(sql), () => db.exec(sql, ...rest));
      if (prop === "transaction")
        return (fn: (tx: never) => Promise<unknown>) => queue.run("write", () => db.transaction(fn));
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
