/**
 * A terminal's last line, shared by a progress line redrawn in place and ordinary messages. Pure: it returns the
 * bytes to write. A message first clears the progress line, so the two are never glued together; the next status
 * line (one a second) draws the progress again, and a finished phase's last figures are not left standing.
 */
export class LiveLine {
  private shown = false;

  /** Redraw the progress line in place. */
  progress(line: string): string {
    this.shown = true;
    return `\r\x1b[2K${line}`;
  }

  /** A message on a line of its own. */
  message(text: string): string {
    if (!this.shown) return `${text}\n`;
    this.shown = false;
    return `\r\x1b[2K${text}\n`;
  }

  /** Clear a progress line still on screen, so what follows starts on a clean line. */
  end(): string {
    if (!this.shown) return "";
    this.shown = false;
    return "\r\x1b[2K";
  }
}
