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

  // The API's fast path (api/app.ts): repeatsKey is false only when no key repeats (then duplicateKey is never run);
  // true for every text with a repeated key, and for a text whose strings hold `\":` (duplicateKey then decides).
  test("repeatsKey is true for every text with a repeated key and false for texts without one", () => {
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
      // Whitespace before a colon, in some members or all (RFC 8259 §2 allows it around every structural character).
      '{"a" : 1, "a":2}',
      '{\n  "a": 1,\n  "a"\t:\r\n 2\n}',
      '{ "a" : 1 , "b" : { "c" : [ { "d" : 1 } ] } }',
      '{"a":"x\\" :","b":1}',
    ];
    const countedOver = new Set([texts[5], texts[7], texts[14]]);
    for (const text of texts) {
      const repeated = duplicateKey(text) !== null;
      const mayRepeat = repeatsKey(text, JSON.parse(text));
      if (repeated) expect(mayRepeat, text).toBe(true);
      // The count is exact (no repeated key, no second scan) unless a string begins with a colon or holds `\":`.
      else expect(mayRepeat, text).toBe(countedOver.has(text));
    }
  });

  test("repeatsKey finds a key repeated anywhere in generated texts, written compactly or with whitespace", () => {
    // A small deterministic generator (no dependency): objects and arrays of a few levels, some with a key repeated.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const keys = ["a", "b", "c:", 'q\\"', "d e", "é"];
    const value = (depth: number): string => {
      const r = random();
      if (depth > 2 || r < 0.3) return JSON.stringify(random() < 0.5 ? Math.round(random() * 100) : `s:${random()}`);
      if (r < 0.5) return `[${Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1)).join(",")}]`;
      const chosen = keys.filter(() => random() < 0.5);
      if (chosen.length && random() < 0.3) chosen.push(chosen[Math.floor(random() * chosen.length)]!);
      const gap = () => [" ", "\n", "\t", ""][Math.floor(random() * 4)]!;
      return `{${chosen.map((k) => `${JSON.stringify(k)}${random() < 0.2 ? gap() : ""}:${value(depth + 1)}`).join(",")}}`;
    };
    let repeated = 0;
    for (let i = 0; i < 2000; i++) {
      const text = value(0);
      if (duplicateKey(text) === null) continue;
      repeated++;
      expect(repeatsKey(text, JSON.parse(text)), text).toBe(true);
    }
    expect(repeated).toBeGreaterThan(100);
  });

  test("repeatsKey counts texts of every size", () => {
    expect(repeatsKey('{"__proto__":1,"a":2}', JSON.parse('{"__proto__":1,"a":2}'))).toBe(false);
    // A string of megabytes (the body limit is 64 MiB) is counted, not a stack overflow taken for no duplicate.
    const long = JSON.stringify({ s: 'x\\"'.repeat(100_000), t: "y".repeat(20_000_000) });
    expect(repeatsKey(long, JSON.parse(long))).toBe(false);
  });
});
