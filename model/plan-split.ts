/** How the global key space and operation counts are shared among clients (seed 001: "distributing the record count"). */
export interface InsertRange {
  clientIndex: number;
  insertStart: number;
  insertCount: number;
}

/** Contiguous, non-overlapping ranges exactly covering 0..recordCount-1; sizes differ by at most one. */
export function splitInserts(recordCount: number, clients: number): InsertRange[] {
  if (!Number.isInteger(recordCount) || recordCount < 1)
    throw new Error(`recordCount: must be a whole number >= 1, got ${recordCount}`);
  if (!Number.isInteger(clients) || clients < 1)
    throw new Error(`clients: must be a whole number >= 1, got ${clients}`);
  const start = (i: number) => Math.floor((i * recordCount) / clients);
  return Array.from({ length: clients }, (_, i) => ({
    clientIndex: i,
    insertStart: start(i),
    insertCount: start(i + 1) - start(i),
  }));
}

/** Per-client operation counts summing exactly to the scenario's total (never 0: YCSB reads 0 as "no limit"). */
export function splitOperations(total: number, clients: number): number[] {
  return splitInserts(Math.max(total, clients), clients).map((r) => r.insertCount);
}
