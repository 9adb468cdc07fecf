import { textOf } from "./bytes.js";

/** "yyyy-MM-dd HH:mm:" of site.ycsb.StatusThread's "yyyy-MM-dd HH:mm:ss:SSS": the same for a minute of lines. */
const MINUTE_PREFIX = 17;
const STAMP = 23;

/**
 * The status lines' timestamps as strings. Consecutive lines share their date, hour and minute, so only the
 * "ss:SSS" that changes is made from the bytes and joined to the string of the minute: a new string per line
 * from the bytes costs about five times as much (bench/parse), and a long run prints one line a second.
 */
export class Timestamps {
  private minute = "";
  private readonly minuteBytes = new Uint8Array(MINUTE_PREFIX);

  text(b: Buffer, from: number, to: number): string {
    if (to - from !== STAMP) return textOf(b, from, to);
    const prefix = this.minuteBytes;
    let same = this.minute.length === MINUTE_PREFIX;
    for (let i = 0; same && i < MINUTE_PREFIX; i++) same = b[from + i] === prefix[i];
    if (!same) {
      for (let i = 0; i < MINUTE_PREFIX; i++) {
        // Not ASCII (not a StatusThread stamp): decode it whole, as any other text.
        if (b[from + i]! > 127) return textOf(b, from, to);
        prefix[i] = b[from + i]!;
      }
      this.minute = textOf(b, from, from + MINUTE_PREFIX);
    }
    const s = from + MINUTE_PREFIX;
    if ((b[s]! | b[s + 1]! | b[s + 2]! | b[s + 3]! | b[s + 4]! | b[s + 5]!) > 127) return textOf(b, from, to);
    return this.minute + String.fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
  }
}
