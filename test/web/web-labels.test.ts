import { describe, expect, it } from "vitest";
import { charsIn, fitLabel, wrapLabel } from "../../web/src/labels.js";

describe("chart labels that fit", () => {
  const long = "cassandra 3.11.0 balanced 1n (seed003-a-ops1000-cassandra) [C.-F. Andor and B. Pârv 2019 (seed 003)]";
  it("wraps at spaces into lines of at most the width, keeping every word while three lines hold it", () => {
    const lines = wrapLabel(long, 30, 5);
    expect(lines.every((l) => l.length <= 30)).toBe(true);
    expect(lines.join(" ")).toBe(long);
  });
  it("cuts the last of maxLines lines with an ellipsis, and breaks a word longer than a line", () => {
    const lines = wrapLabel(long, 20, 3);
    expect(lines).toHaveLength(3);
    expect(lines[2]!.endsWith("…")).toBe(true);
    expect(lines.every((l) => l.length <= 20)).toBe(true);
    expect(wrapLabel("a-very-long-run-identifier", 10)).toEqual(["a-very-lon", "g-run-iden", "tifier"]);
    expect(wrapLabel("short", 10)).toEqual(["short"]);
  });
  it("fits a label to a number of characters, and counts characters in pixels with a floor", () => {
    expect(fitLabel("web-history-00: cassandra", 12)).toBe("web-history…");
    expect(fitLabel("short", 12)).toBe("short");
    expect(charsIn(700)).toBe(100);
    expect(charsIn(10)).toBe(8);
  });
});
