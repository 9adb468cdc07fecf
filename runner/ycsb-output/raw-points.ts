import type { ClientOutput } from "../../model/result-document.js";

type RawSummary = NonNullable<ClientOutput["rawPoints"]>[string];

const HEADER = " latency raw data: op, timestamp(ms), latency(us)";

/**
 * measurementtype=raw prints every operation as "READ,1700000000123,2071" (OneMeasurementRaw), after a
 * "READ latency raw data: ..." header. Millions of points are summarised, not kept.
 */
export class RawPoints {
  private readonly byGroup = new Map<
    string,
    { count: number; firstMs: number; lastMs: number; minUs: number; maxUs: number; sumUs: number }
  >();

  /** True for the header line YCSB prints before a group's points. */
  static isHeader(line: string): boolean {
    return line.endsWith(HEADER);
  }

  /** Takes the line if it is a raw point; false otherwise. */
  add(line: string): boolean {
    const c1 = line.indexOf(",");
    if (c1 <= 0) return false;
    const c2 = line.indexOf(",", c1 + 1);
    if (c2 < 0 || line.indexOf(",", c2 + 1) >= 0) return false;
    const ts = digits(line, c1 + 1, c2);
    const us = digits(line, c2 + 1, line.length);
    if (ts < 0 || us < 0) return false;
    const group = line.slice(0, c1);
    const s = this.byGroup.get(group);
    if (!s) {
      this.byGroup.set(group, { count: 1, firstMs: ts, lastMs: ts, minUs: us, maxUs: us, sumUs: us });
    } else {
      s.count++;
      if (ts < s.firstMs) s.firstMs = ts;
      if (ts > s.lastMs) s.lastMs = ts;
      if (us < s.minUs) s.minUs = us;
      if (us > s.maxUs) s.maxUs = us;
      s.sumUs += us;
    }
    return true;
  }

  get size(): number {
    return this.byGroup.size;
  }

  result(): Record<string, RawSummary> {
    const out: Record<string, RawSummary> = {};
    for (const [group, s] of this.byGroup) {
      out[group] = {
        count: s.count,
        firstMs: s.firstMs,
        lastMs: s.lastMs,
        minUs: s.minUs,
        maxUs: s.maxUs,
        avgUs: s.sumUs / s.count,
      };
    }
    return out;
  }
}

/** A run of ASCII digits as a number, or -1. */
function digits(s: string, from: number, to: number): number {
  if (to <= from || to - from > 15) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}
