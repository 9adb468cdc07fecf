/**
 * A terminal's last line, shared by a progress line redrawn in place and ordinary messages. Pure: it returns the
 * bytes to write. A message first clears the progress line (so the two are never glued together), then the
 * progress line is drawn again below it; `end()` leaves the last progress line as the line it was.
 */
export class LiveLine {
  private shown: string | undefined;

  /** Redraw the progress line in place. */
  progress(line: string): string {
    this.shown = line;
    return `\r\x1b[2K${line}`;
  }

  /** A message on a line of its own, the progress line (if any) kept below it. */
  message(text: string): string {
    if (this.shown === undefined) return `${text}\n`;
    return `\r\x1b[2K${text}\n${this.shown}`;
  }

  /** Finish the progress line with a newline, so what follows starts on a line of its own. */
  end(): string {
    if (this.shown === undefined) return "";
    this.shown = undefined;
    return "\n";
  }
}
