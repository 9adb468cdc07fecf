/**
 * Turns for computing answers (pure): at most `slots` at once, the rest waiting in one queue per client address, served
 * in turn across addresses. One client asking for answers nobody else wants (a new query each time) waits behind its
 * own requests, never in front of other viewers'; a request whose client has gone leaves the queue unserved: nothing
 * is computed for nobody.
 */
export class ComputeQueue {
  private running = 0;
  private readonly waiting = new Map<string, { start: () => void; signal: AbortSignal }[]>();

  constructor(readonly slots: number) {
    if (!(slots >= 1)) throw new RangeError(`compute slots must be at least 1, got ${slots}`);
  }

  /** Resolves with the release of a slot when it is this request's turn; rejects if `signal` aborts first. */
  acquire(address: string, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        start: () => {
          signal.removeEventListener("abort", onAbort);
          this.running++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.running--;
            this.next();
          });
        },
      };
      const onAbort = () => {
        const q = this.waiting.get(address);
        const i = q?.indexOf(entry) ?? -1;
        if (i >= 0) q!.splice(i, 1);
        if (q && q.length === 0) this.waiting.delete(address);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      const q = this.waiting.get(address);
      if (q) q.push(entry);
      else this.waiting.set(address, [entry]);
      this.next();
    });
  }

  /** Requests waiting, per address (diagnostics, tests). */
  get queued(): Record<string, number> {
    return Object.fromEntries([...this.waiting].map(([a, q]) => [a, q.length]));
  }

  get busy(): number {
    return this.running;
  }

  private next(): void {
    while (this.running < this.slots && this.waiting.size > 0) {
      // The address that has waited longest since its last turn: Map order, each served address moved to the end.
      const [address, q] = this.waiting.entries().next().value as [
        string,
        { start: () => void; signal: AbortSignal }[],
      ];
      const entry = q.shift()!;
      this.waiting.delete(address);
      if (q.length > 0) this.waiting.set(address, q);
      entry.start();
    }
  }
}
