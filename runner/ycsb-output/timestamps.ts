/**
 * The status lines' timestamps ("2026-11-22 04:32:37:191", site.ycsb.StatusThread), one per line or null.
 * Their bytes are gathered while the lines are read and turned into strings once at the end: one text for all
 * of them, each line's stamp a slice of it. A new string per line straight from the input costs several times
 * as much (bench/parse), and the slices keep alive only the stamps, which the series keeps anyway.
 */
export class Timestamps {
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  /** Per line: where its stamp ends in `bytes`, or -1 when it is in `others`. */
  private ends = new Int32Array(1 << 12);
  /** Stamps that are null or not ASCII, by line. */
  private readonly others = new Map<number, string | null>();
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** The next line's stamp: bytes [from, to) of b, as printed; null when empty. */
  add(b: Uint8Array, from: number, to: number): void {
    const n = to - from;
    if (n <= 0) {
      this.addText(null);
      return;
    }
    if (this.used + n > this.bytes.length) this.bytes = grown(this.bytes, this.used + n);
    const bytes = this.bytes;
    const at = this.used;
    for (let i = 0; i < n; i++) {
      const c = b[from + i]!;
      // Not ASCII: not a StatusThread stamp, kept as its UTF-8 text.
      if (c > 127) {
        this.addText(Buffer.from(b.buffer, b.byteOffset + from, n).toString("utf8"));
        return;
      }
      bytes[at + i] = c;
    }
    this.used = at + n;
    this.end(this.used);
  }

  /** The next line's stamp as text (or null). */
  addText(text: string | null): void {
    this.others.set(this.count, text);
    this.end(-1);
  }

  /** One entry per line added. */
  finish(): (string | null)[] {
    const all = Buffer.from(this.bytes.buffer, 0, this.used).toString("latin1");
    const out = new Array<string | null>(this.count);
    let start = 0;
    for (let i = 0; i < this.count; i++) {
      const end = this.ends[i]!;
      if (end < 0) out[i] = this.others.get(i) ?? null;
      else {
        out[i] = all.slice(start, end);
        start = end;
      }
    }
    return out;
  }

  private end(at: number): void {
    if (this.count === this.ends.length) this.ends = grown(this.ends, this.count + 1);
    this.ends[this.count++] = at;
  }
}

function grown<T extends Uint8Array | Int32Array>(array: T, atLeast: number): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(atLeast, array.length * 2));
  next.set(array);
  return next;
}
