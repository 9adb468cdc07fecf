import { describe, expect, test } from "vitest";
import { duplicateKey, repeatsKey } from "../../api/json-strict.js";

describe("a JSON body's first duplicate key (api/json-strict.ts)", () => {
  test("names the repeated member by JSON pointer, at any depth", () => {
    expect(duplicateKey('{"id":"A","id":"B"}')).toEqual({ path: "/id", key: "id" });
    expect(duplicateKey('[{"run":{"id":"a"}},{"run":{"id":"a","nodes":1,"nodes":2}}]')).toEqual({
      path: "/1/run/nodes",
      key: "nodes",
    });
    expect(duplicateKey('{"a/b":1,"a\\/b":2}')).toEqual({ path: "/a~1b", key: "a/b" });
    expect(duplicateKey('{"e\\u0301":1,"é":2}')).toBeNull();
  });

  test("keys in other objects, strings holding braces, quotes and commas are no duplicates", () => {
    expect(duplicateKey('{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}')).toBeNull();
    expect(duplicateKey('{"a":"{\\"a\\":1,","b":"\\\\","c":"]"}')).toBeNull();
    expect(duplicateKey('{"lines":["x","x"],"y":1}')).toBeNull();
  });

  // The API's fast path (api/app.ts): a parsed body holds fewer properties than its text has members only when a key
  // repeats; duplicateKey then names it. Every text here is checked both ways.
  test("repeatsKey agrees with duplicateKey on texts with and without a repeated key", () => {
    const texts = [
      '{"id":"A","id":"B"}',
      '[{"run":{"id":"a"}},{"run":{"id":"a","nodes":1,"nodes":2}}]',
      '{"a/b":1,"a\\/b":2}',
      '{"e\\u0301":1,"é":2}',
      '{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}',
      '{"a":"{\\"a\\":1,","b":"\\\\","c":"]"}',
      '{"lines":["x","x"],"y":1}',
      '{"at":["04:32:44:724",":",": "],"k:":{"":1,":":2}}',
      '{"q":"\\":\\"","q":1}',
      '[1,2,{"a":[],"b":{}},"x:y"]',
      '"a:b"',
    ];
    for (const text of texts) expect(repeatsKey(text, JSON.parse(text)), text).toBe(duplicateKey(text) !== null);
    expect(repeatsKey('{"__proto__":1,"a":2}', JSON.parse('{"__proto__":1,"a":2}'))).toBe(false);
    // A string of megabytes (the body limit is 64 MiB) is counted, not a stack overflow taken for no duplicate.
    const long = JSON.stringify({ s: 'x\\"'.repeat(100_000), t: "y".repeat(20_000_000) });
    expect(repeatsKey(long, JSON.parse(long))).toBe(false);
  });
});
