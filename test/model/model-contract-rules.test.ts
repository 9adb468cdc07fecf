import { Float64Histogram } from "hdr-histogram-js";
import { describe, expect, test } from "vitest";
import { clientHistograms, encodeHistogram } from "../../model/hdr/index.js";
import { identifierProblem, normalizeIdentifiers } from "../../model/identifiers.js";
import { validateResultDocument } from "../../model/index.js";
import { textProblems } from "../../model/result-checks.js";
import { fixtureDocument, fixtureHdr } from "../api/api-helpers.js";

const withHistograms = (variant: "hdr-v1" | "hdr-v2" = "hdr-v2") => ({
  ...fixtureDocument({ runId: "rules", variant }),
  hdrHistograms: clientHistograms(
    ["READ", "UPDATE"].map((operation) => ({ operation, text: fixtureHdr(variant, 0, operation) })),
  ),
});

/** A histogram of `count` recordings of `valueUs` each. */
function histogramOf(count: number, valueUs: number): string {
  const h = new Float64Histogram(1, 2, 3);
  h.autoResize = true;
  h.recordValueWithCount(valueUs, count);
  return encodeHistogram(h);
}

const errorsOf = (doc: unknown) => {
  const r = validateResultDocument(doc);
  return r.ok ? [] : r.errors;
};

describe("a histogram is accepted only where it is the one YCSB printed from (model/result-checks.ts)", () => {
  test("the runner's histograms of real YCSB output (HdrHistogram 2.1.4 and 2.1.12 logs) are accepted", () => {
    expect(errorsOf(withHistograms("hdr-v1"))).toEqual([]);
    expect(errorsOf(withHistograms("hdr-v2"))).toEqual([]);
  });

  test("36,159 READs printed with p99 2,115 µs and a histogram of 7 samples at 10 s: refused, naming the histogram", () => {
    const d = withHistograms();
    d.hdrHistograms.READ = histogramOf(7, 10_000_000);
    const errors = errorsOf(d);
    expect(errors.map((e) => e.path)).toContain("/hdrHistograms/READ");
    expect(errors.find((e) => e.path === "/hdrHistograms/READ")!.message).toMatch(
      /holds 7 recordings, but \/result\/operations\/READ\/count is \d+/,
    );
  });

  test("the right count but other latencies: refused, naming the percentile that disagrees", () => {
    const d = withHistograms();
    d.hdrHistograms.READ = histogramOf(d.result.operations.READ!.count, 10_000_000);
    const message = errorsOf(d).find((e) => e.path === "/hdrHistograms/READ")?.message;
    expect(message).toMatch(
      /p\d+(\.\d+)? is .* in the histogram, but \/result\/operations\/READ\/percentilesUs\/\d+(\.\d+)? printed \d+/,
    );
  });

  test("a histogram of an operation the document never ran (DELETE, 5e12 counts) is refused, not stored as dead weight", () => {
    const d = withHistograms();
    (d.hdrHistograms as Record<string, string>).DELETE = histogramOf(5e12, 1000);
    const errors = errorsOf(d);
    expect(errors.find((e) => e.path === "/hdrHistograms/DELETE")?.message).toMatch(/no operation group DELETE/);
  });
});

describe("names are keys: NFC, and nothing invisible (model/identifiers.ts)", () => {
  test("zero-width and bidirectional control characters in a name are refused, naming the field", () => {
    expect(identifierProblem("api-test\u200b")).toMatch(/zero-width character \(U\+200B\)/);
    expect(identifierProblem("5.0.4\u202e")).toMatch(/bidirectional control character \(U\+202E\)/);
    expect(identifierProblem("café-t4")).toBeNull();
    const d = fixtureDocument({ runId: "names" }) as ReturnType<typeof fixtureDocument>;
    d.run.scenario = "api-test\u200b";
    d.run.engineVersion = "5.0.4\u202e";
    d.phase.properties["record\u2066count"] = "1";
    const paths = errorsOf(d).map((e) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(["/run/scenario", "/run/engineVersion", "/phase/properties/record\u2066count"]),
    );
  });

  test("free text may hold them (a warning quoting a line): only names are refused", () => {
    const d = fixtureDocument({ runId: "names" });
    d.result.warnings = ["\u202eright to left\u202c"];
    d.validity = { verdict: "warning", reasons: [{ code: "saturated", message: "\u2067quoted\u2069" }] };
    expect(errorsOf(d)).toEqual([]);
  });

  // The text check notes a document whose keys are all printable ASCII, and normalisation then skips its keys: a
  // document checked with a decomposed key must still have it normalised, and one checked plain keeps its object.
  test("a document the text check found plain keeps its keys; one with a decomposed key is still normalised", () => {
    const plain = fixtureDocument({ runId: "names" });
    expect(textProblems(plain)).toEqual([]);
    expect(normalizeIdentifiers(plain)).toBe(plain);
    const decomposed = fixtureDocument({ runId: "names" });
    decomposed.phase.properties["cafe\u0301"] = "1";
    expect(textProblems(decomposed)).toEqual([]);
    expect(Object.keys(normalizeIdentifiers(decomposed).phase.properties)).toContain("café");
    expect(Object.keys(normalizeIdentifiers(decomposed).phase.properties)).not.toContain("cafe\u0301");
  });

  test("NFC and NFD spellings of a name are one name: normalised, and two keys that render the same are refused", () => {
    const d = fixtureDocument({ runId: "names", phaseName: "cafe\u0301-t4" });
    d.phase.properties["cafe\u0301"] = "1";
    const r = validateResultDocument(d);
    expect(r.ok).toBe(true);
    const n = r.ok ? r.value : undefined;
    expect(n!.phase.name).toBe("café-t4");
    expect(Object.keys(n!.phase.properties)).toContain("café");
    expect(normalizeIdentifiers(n)).toBe(n);
    d.phase.properties["café"] = "2";
    expect(
      errorsOf(d)
        .map((e) => e.message)
        .join(),
    ).toMatch(/once normalized \(Unicode NFC\)/);
  });
});
