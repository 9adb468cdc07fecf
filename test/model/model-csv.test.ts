import { describe, expect, it } from "vitest";
import { csvField, csvRecords, csvTable } from "../../model/csv.js";

describe("the one CSV writer (API answers and dashboard exports)", () => {
  it("quotes what RFC 4180 asks, leaves empty what has no value", () => {
    expect(
      csvTable(
        ["a", "b"],
        [
          ["x,y", 'say "hi"'],
          [1.5, null],
          ["line\nbreak", Number.NaN],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n1.5,\r\n"line\nbreak",\r\n');
  });

  it("keeps a spreadsheet from running a cell as a formula, but not a negative number", () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("-12.5")).toBe("-12.5");
    expect(csvField(-3)).toBe("-3");
  });

  it("writes records under the union of their keys, objects as JSON", () => {
    expect(csvRecords([{ a: 1 }, { b: { c: 2 }, a: 3 }])).toBe('a,b\r\n1,\r\n3,"{""c"":2}"\r\n');
  });
});
