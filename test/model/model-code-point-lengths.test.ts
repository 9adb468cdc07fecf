import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { describe, expect, it } from "vitest";
import { codePointLength, withCodePointLengths } from "../../model/code-point-lengths.js";
import { checkAgainst } from "../../model/result-validation.js";

const EMOJI = "\u{1F600}"; // one code point, two UTF-16 units

describe("string lengths in code points, as JSON Schema counts them", () => {
  it("codePointLength counts a surrogate pair once and a lone surrogate as one", () => {
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength(EMOJI.repeat(10))).toBe(10);
    expect(codePointLength("a\ud800b")).toBe(3);
    expect(codePointLength("é")).toBe(1);
  });

  it("a maxLength of 10 takes 10 emoji (20 UTF-16 units) and refuses 11", () => {
    const schema = Type.Object({ seed: Type.String({ maxLength: 10 }) });
    const c = TypeCompiler.Compile(withCodePointLengths(schema));
    expect(c.Check({ seed: EMOJI.repeat(10) })).toBe(true);
    expect(c.Check({ seed: EMOJI.repeat(11) })).toBe(false);
    expect(c.Check({ seed: "x".repeat(11) })).toBe(false);
    // TypeBox on its own counted UTF-16 units: the case the OpenAPI document calls valid was refused.
    expect(TypeCompiler.Compile(schema).Check({ seed: EMOJI.repeat(10) })).toBe(false);
  });

  it("a minLength of 2 refuses one emoji (2 UTF-16 units) and takes two", () => {
    const c = TypeCompiler.Compile(withCodePointLengths(Type.String({ minLength: 2, maxLength: 3 })));
    expect(c.Check(EMOJI)).toBe(false);
    expect(c.Check(EMOJI.repeat(2))).toBe(true);
    expect(c.Check(EMOJI.repeat(3))).toBe(true);
    expect(c.Check(EMOJI.repeat(4))).toBe(false);
  });

  it("the schema as written is left alone (the document states maxLength), its copy checks", () => {
    const schema = Type.Object({ a: Type.String({ maxLength: 5 }) });
    withCodePointLengths(schema);
    expect(schema.properties.a.maxLength).toBe(5);
    expect(schema.properties.a.format).toBeUndefined();
  });

  it("a result check names the limit in characters", () => {
    const errors = checkAgainst(Type.Object({ name: Type.String({ maxLength: 3 }) }), {
      name: `${EMOJI}${EMOJI}${EMOJI}x`,
    });
    expect(errors).toEqual([
      { path: "/name", message: "expected a string of at most 3 characters (Unicode code points)" },
    ]);
    expect(checkAgainst(Type.Object({ name: Type.String({ maxLength: 3 }) }), { name: EMOJI.repeat(3) })).toEqual([]);
  });
});
