import { FormatRegistry, Kind, type TSchema } from "@sinclair/typebox";

/**
 * A string's length as JSON Schema counts it: in characters, i.e. Unicode code points (JSON Schema Validation 2020-12
 * §6.3.1, "the number of its characters as defined by RFC 8259"), which is also what Postgres's varchar counts.
 * TypeBox checks minLength and maxLength with JavaScript's .length, in UTF-16 units, so 10 emoji (20 units) failed a
 * maxLength of 10 that the OpenAPI document, and every client reading it, calls valid.
 */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const FORMAT_PREFIX = "code-points:";

/** The format checking a length range in code points (registered once per range). */
function lengthFormat(min: number | undefined, max: number | undefined): string {
  const name = `${FORMAT_PREFIX}${min ?? 0}..${max ?? ""}`;
  if (!FormatRegistry.Has(name)) {
    FormatRegistry.Set(name, (s) => {
      // Code points are at most the UTF-16 units and at least half of them: counted only when .length cannot decide.
      if (min !== undefined && s.length < min) return false;
      if ((max === undefined || s.length <= max) && (min === undefined || s.length >= 2 * min)) return true;
      const n = codePointLength(s);
      return (min === undefined || n >= min) && (max === undefined || n <= max);
    });
  }
  return name;
}

/** A length range's format as a sentence (schemaErrorMessage), or null for any other format. */
export function lengthFormatMessage(format: unknown): string | null {
  if (typeof format !== "string" || !format.startsWith(FORMAT_PREFIX)) return null;
  const [min, max] = format.slice(FORMAT_PREFIX.length).split("..");
  const parts = [Number(min) > 0 ? `at least ${min}` : "", max ? `at most ${max}` : ""].filter(Boolean);
  return `expected a string of ${parts.join(" and ")} characters (Unicode code points)`;
}

const converted = new WeakMap<object, unknown>();

/**
 * The schema to check with: the same, but every string's minLength/maxLength counted in code points (a registered
 * format in their place). The document keeps the schema as written; only checking uses this copy.
 */
export function withCodePointLengths<T extends TSchema>(schema: T): T {
  return convert(schema) as T;
}

function convert(node: unknown): unknown {
  if (node === null || typeof node !== "object") return node;
  const known = converted.get(node);
  if (known) return known;
  if (Array.isArray(node)) return node.map(convert);
  const s = node as Record<string | symbol, unknown>;
  let out: Record<string | symbol, unknown>;
  if (s[Kind] === "String" && s.format === undefined && (s.minLength !== undefined || s.maxLength !== undefined)) {
    // Object rest keeps the symbol-keyed properties (TypeBox's Kind) beside the others.
    const { minLength, maxLength, ...rest } = s as { minLength?: number; maxLength?: number };
    out = { ...rest, format: lengthFormat(minLength, maxLength) };
  } else {
    out = { ...s };
    for (const [k, v] of Object.entries(s))
      if (k !== "const" && k !== "default" && k !== "examples") out[k] = convert(v);
  }
  converted.set(node, out);
  return out;
}
