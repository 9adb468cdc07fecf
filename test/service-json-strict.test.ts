import { describe, expect, test } from "vitest";
import { duplicateKey } from "../api/json-strict.js";

describe("a JSON body's first duplicate key (api/json-strict.ts)", () => {
  test("names the repeated member by JSON pointer, at any depth", () => {
    expect(duplicateKey('{"id":"A","id":"B"}')).toEqual({ path: "/id", key: "id" });
    expect(duplicateKey('[{"run":{"id":"a"}},{"run":{"id":"a","nodes":1,"nodes":2}}]')).toEqual({ path: "/1/run/nodes", key: "nodes" });
    expect(duplicateKey('{"a/b":1,"a\\/b":2}')).toEqual({ path: "/a~1b", key: "a/b" });
    expect(duplicateKey('{"e\\u0301":1,"é":2}')).toBeNull();
  });

  test("keys in other objects, strings holding braces, quotes and commas are no duplicates", () => {
    expect(duplicateKey('{"a":{"x":1},"b":{"x":1},"c":[{"x":1},{"x":2}]}')).toBeNull();
    expect(duplicateKey('{"a":"{\\"a\\":1,","b":"\\\\","c":"]"}')).toBeNull();
    expect(duplicateKey('{"lines":["x","x"],"y":1}')).toBeNull();
  });
});
