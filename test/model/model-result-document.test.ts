import { describe, expect, test } from "vitest";
import { validateResultDocument } from "../../model/index.js";
import { sampleDocument } from "../support/documents.js";

describe("result document", () => {
  test("a complete document validates", () => {
    expect(validateResultDocument(sampleDocument())).toMatchObject({ ok: true });
  });

  test.each([
    ["/run/nodes", (d: any) => (d.run.nodes = "three")],
    ["/run/engine", (d: any) => (d.run.engine = "oracle")],
    ["/result/operations/READ/count", (d: any) => (d.result.operations.READ.count = -1)],
    ["/startedAt", (d: any) => (d.startedAt = "yesterday")],
    ["/schemaVersion", (d: any) => (d.schemaVersion = 99)],
    ["/run/id", (d: any) => (d.run.id = "x'; DROP TABLE runs; --")],
  ])("an error names the field %s", (path, spoil) => {
    const doc = sampleDocument();
    spoil(doc);
    const checked = validateResultDocument(doc);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors.map((e) => e.path)).toContain(path);
  });

  test("a missing section is named", () => {
    const doc: any = sampleDocument();
    delete doc.validity;
    const checked = validateResultDocument(doc);
    expect(checked.ok ? [] : checked.errors.map((e) => e.path)).toContain("/validity");
  });
});
