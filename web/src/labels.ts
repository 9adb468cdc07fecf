/**
 * Chart labels that fit: Chart.js draws a tick or legend label whole and lets the canvas cut what does not fit (a
 * published run's label with its citation ran 900 px past the left edge of compare's chart). Pure.
 */

/** Characters of the charts' 12 px sans-serif that fit in `px` pixels, counting wide (7 px) so that the text fits. */
export function charsIn(px: number): number {
  return Math.max(8, Math.floor(px / 7));
}

/** `text` cut to `max` characters, the cut marked with an ellipsis. */
export function fitLabel(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

/** `text` in lines of at most `max` characters, broken at spaces where it can be, at most `maxLines` lines (the last one cut). */
export function wrapLabel(text: string, max: number, maxLines = 3): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const joined = line ? `${line} ${word}` : word;
    if (joined.length <= max) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    // A word longer than a line is broken inside.
    let rest = word;
    while (rest.length > max) {
      lines.push(rest.slice(0, max));
      rest = rest.slice(max);
    }
    line = rest;
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines - 1), fitLabel(lines.slice(maxLines - 1).join(" "), max)];
}
