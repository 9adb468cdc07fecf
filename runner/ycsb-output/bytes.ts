import { toNumber } from "./numbers.js";

/**
 * Reading YCSB output straight from its bytes: the status lines of a long run are tens of megabytes, and
 * indexing a Buffer is about twice as fast as charCodeAt on strings sliced from a decoded copy (bench/parse).
 * Everything YCSB prints in a status line is ASCII except "∞" (a rate over a zero interval), which is
 * only ever compared, never read as a number.
 */

/** The input as bytes: a Buffer over the same memory when given one, UTF-8 encoded when given text. */
export function asBytes(input: string | Uint8Array): Buffer {
  if (typeof input === "string") return Buffer.from(input, "utf8");
  return Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
}

/** The text of bytes [from, to). */
export function textOf(b: Buffer, from: number, to: number): string {
  return b.toString("utf8", from, to);
}

/**
 * Text to find in the bytes, held as bytes and as little-endian 32-bit words, compared four bytes at a time:
 * the words at 0, 4, 8, ... and a last one ending at the last byte (overlapping the one before when the length
 * is not a multiple of four), so a separator like ", 99.9=" is two comparisons rather than seven.
 */
export class Literal {
  readonly length: number;
  /** The words at 0, 4, ... that fit, then the word ending at the last byte (none when shorter than 4). */
  readonly words: Uint32Array;

  constructor(readonly bytes: Uint8Array) {
    const n = (this.length = bytes.length);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const words: number[] = [];
    if (n >= 4) {
      for (let at = 0; at + 4 < n; at += 4) words.push(view.getUint32(at, true));
      words.push(view.getUint32(n - 4, true));
    }
    this.words = Uint32Array.from(words);
  }

  static ascii(text: string): Literal {
    return new Literal(Uint8Array.from(text, (ch) => ch.charCodeAt(0)));
  }
}

/** A DataView over the same bytes, for literalAt. */
export function viewOf(b: Buffer): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** True when `literal` is at `at` in b (`view` being viewOf(b)), inside [at, limit). */
export function literalAt(b: Buffer, view: DataView, at: number, limit: number, literal: Literal): boolean {
  const n = literal.length;
  if (at < 0 || at + n > limit) return false;
  if (n < 4) {
    const bytes = literal.bytes;
    for (let i = 0; i < n; i++) if (b[at + i] !== bytes[i]) return false;
    return true;
  }
  const words = literal.words;
  const last = words.length - 1;
  for (let w = 0; w < last; w++) if (view.getUint32(at + w * 4, true) !== words[w]) return false;
  return view.getUint32(at + n - 4, true) === words[last];
}

/** True when the bytes hold no text but spaces, tabs and line ends. */
export function isBlank(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return false;
  }
  return true;
}

/**
 * Reads decimal numbers in place. `end` is where the last one read ends (its first byte not part of it),
 * kept on the reader rather than returned so that no object is made per number.
 */
export class DecimalReader {
  end = 0;

  /**
   * The decimal number starting at `from` (optional "-", digits, optional fraction), read up to `limit` at
   * most; NaN when none starts there. Numbers of more than 15 digits or with an exponent (Java prints 1.0E7
   * for large doubles) go through the general parser, so every result is the same double as Number() of the
   * printed text.
   */
  read(b: Buffer, from: number, limit: number): number {
    let i = from;
    const negative = i < limit && b[i] === 45;
    if (negative) i++;
    const digitsFrom = i;
    let n = 0;
    let d = i < limit ? b[i]! - 48 : -1;
    while (d >= 0 && d <= 9) {
      n = n * 10 + d;
      d = ++i < limit ? b[i]! - 48 : -1;
    }
    let digits = i - digitsFrom;
    if (d === -2 /* . */ && digits > 0) {
      const fractionFrom = i + 1;
      let scale = 1;
      d = ++i < limit ? b[i]! - 48 : -1;
      while (d >= 0 && d <= 9) {
        n = n * 10 + d;
        scale *= 10;
        d = ++i < limit ? b[i]! - 48 : -1;
      }
      digits += i - fractionFrom;
      // One division of two exact integers (<= 15 digits) is correctly rounded: the same double as Number().
      n /= scale;
    }
    this.end = i;
    if (digits === 0) return NaN;
    if (digits > 15 || d === 21 /* E */ || d === 53 /* e */) {
      let end = i;
      while (end < limit && isNumberByte(b[end]!)) end++;
      this.end = end;
      return toNumber(b.toString("latin1", from, end)) ?? NaN;
    }
    return negative ? -n : n;
  }
}

function isNumberByte(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 69 || c === 101;
}

/**
 * One string per distinct name (operation groups, percentile keys): they repeat on every status line, and
 * making a new string for each would cost more than reading the numbers. Names recur in the same order line
 * after line, so the search starts where the last one was found.
 */
export class NameTable {
  private readonly names: string[] = [];
  /** Each name's UTF-8 bytes, compared with the input's bytes. */
  private readonly bytes: Buffer[] = [];
  private next = 0;

  get(b: Buffer, from: number, to: number): string {
    const all = this.bytes;
    const count = all.length;
    const length = to - from;
    for (let tried = 0, k = this.next; tried < count; tried++, k++) {
      if (k === count) k = 0;
      const name = all[k]!;
      if (name.length !== length) continue;
      let j = 0;
      while (j < length && name[j] === b[from + j]) j++;
      if (j === length) {
        this.next = k + 1;
        return this.names[k]!;
      }
    }
    const name = textOf(b, from, to);
    // Bounded: a pathological output with endless distinct names must not turn the table into a slow list.
    if (count < 64) {
      this.names.push(name);
      this.bytes.push(Buffer.from(b.subarray(from, to)));
    }
    return name;
  }
}
