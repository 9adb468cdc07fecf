/**
 * Names that identify something (a scenario, a phase, an engine version, an instance type, an operation group, a
 * property, a query filter) are compared as keys: two that render the same must be the same key. So they are stored in
 * Unicode normalization form C (a "café-t4" typed as e + U+0301 is the phase "café-t4"), and invisible characters that
 * make a name look like another are refused: zero-width characters and bidirectional controls (Unicode Technical
 * Report #36 "Unicode Security Considerations", 2.3 and 3.4; UAX #9 for the controls). Free text (reasons, warnings,
 * YCSB's lines, property values) may hold them; it is isolated where it is rendered.
 */

/** A problem at a JSON pointer (the shape of result-checks.ts FieldError). */
interface FieldError {
  path: string;
  message: string;
}

/** Zero-width: ZWSP, ZWNJ, ZWJ, word joiner, invisible operators, ZWNBSP (BOM), Mongolian vowel separator. */
const ZERO_WIDTH = "\u200B\u200C\u200D\u2060\u2061\u2062\u2063\u2064\uFEFF\u180E";
/** Bidirectional controls: LRM, RLM, ALM, the embeddings and overrides (LRE..RLO), the isolates (LRI..PDI). */
const BIDI_CONTROLS = "\u200E\u200F\u061C\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069";
const INVISIBLE = new RegExp(`[${ZERO_WIDTH}${BIDI_CONTROLS}]`, "u");

const escaped = (chars: string) =>
  [...chars].map((c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`).join("");
/**
 * A name as a JSON Schema pattern a client can check (the OpenAPI document states it on every query and path value):
 * no U+0000, which no text column stores (result-checks.ts textProblem), and no invisible character.
 */
export const NAME_PATTERN = `^[^${escaped(`\u0000${ZERO_WIDTH}${BIDI_CONTROLS}`)}]*$`;

/** Why a name cannot be an identifier, or null. */
export function identifierProblem(name: string): string | null {
  const m = INVISIBLE.exec(name);
  if (!m) return null;
  const code = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  const what = ZERO_WIDTH.includes(m[0]) ? "a zero-width character" : "a bidirectional control character";
  return `contains ${what} (${code}) at ${m.index}: a name must not look like another`;
}

/**
 * A name in normalization form C: identity for ASCII, the common case, found without allocating (a loop over a short
 * name's code units costs less than a regular expression's call, and runs for every key of every document).
 */
export function nfc(s: string): string {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return s.normalize("NFC");
  return s;
}

const pointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * Where a result document holds names: every map key, and these fields (a path of property names; "*" is any array
 * element or map entry). Everything else that is a string is free text.
 */
const IDENTIFIER_FIELDS: readonly (readonly string[])[] = [
  ["run", "scenario"],
  ["run", "engineVersion"],
  ["run", "instanceTypes", "data"],
  ["run", "instanceTypes", "client"],
  ["run", "storage"],
  ["run", "region"],
  ["run", "ycsbVersion"],
  ["run", "bindingsVersion"],
  ["run", "ycsbLabVersion"],
  ["run", "standIn"],
  ["run", "provenance", "stack"],
  ["run", "provenance", "configHash"],
  ["run", "provenance", "ami"],
  ["phase", "name"],
  ["phase", "workload"],
  ["client", "host"],
  ["hdrLogs", "*", "operation"],
  ["validity", "reasons", "*", "code"],
];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The identifier fields of a result document (IDENTIFIER_FIELDS) holding an invisible character, by JSON pointer. Map
 * keys, the other names, are checked where every key is (result-checks.ts textProblems).
 */
export function identifierFieldProblems(doc: unknown): FieldError[] {
  const problems: FieldError[] = [];
  for (const path of IDENTIFIER_FIELDS) {
    eachValueAt(doc, path, 0, [], (value, at) => {
      const p = typeof value === "string" ? identifierProblem(value) : null;
      if (p && problems.length < 20) problems.push({ path: at(), message: p });
    });
  }
  return problems;
}

/**
 * Calls `f` with each value at `path` (from its step `from` on) and a function spelling its JSON pointer: the pointer
 * is written only for a problem (this runs over every document of every batch), and no list is made per step.
 */
function eachValueAt(
  v: unknown,
  path: readonly string[],
  from: number,
  segments: string[],
  f: (value: unknown, at: () => string) => void,
): void {
  if (from === path.length) {
    f(v, () => `/${segments.map(pointer).join("/")}`);
    return;
  }
  const head = path[from]!;
  if (head === "*") {
    if (Array.isArray(v))
      for (let i = 0; i < v.length; i++) {
        segments.push(String(i));
        eachValueAt(v[i], path, from + 1, segments, f);
        segments.pop();
      }
    else if (isObject(v))
      for (const k in v) {
        segments.push(k);
        eachValueAt(v[k], path, from + 1, segments, f);
        segments.pop();
      }
    return;
  }
  if (isObject(v) && head in v) {
    segments.push(head);
    eachValueAt(v[head], path, from + 1, segments, f);
    segments.pop();
  }
}

/**
 * Documents whose every key the text check found printable ASCII, so in NFC already (result-checks.ts textProblems,
 * run on every document before ingest stores it): normalizeIdentifiers does not walk their keys a second time. Held
 * weakly, by the object: a document is not changed between its check and its storing.
 */
const keysPlain = new WeakSet<object>();

/** Notes that every key of `doc` is printable ASCII (textProblems, having walked them all and found no problem). */
export function noteKeysPlain(doc: object): void {
  keysPlain.add(doc);
}

/** Whether the text check found every key of `doc` printable ASCII (noteKeysPlain). */
export const keysArePlain = (doc: object): boolean => keysPlain.has(doc);

/**
 * The document with every name in normalization form C (map keys and the identifier fields), the same object when
 * nothing changes. Call once the document passed textProblems (its keys then cannot collide once normalized).
 */
export function normalizeIdentifiers<T>(doc: T): T {
  let out = doc !== null && typeof doc === "object" && keysPlain.has(doc) ? doc : normalizeKeys(doc);
  for (const path of IDENTIFIER_FIELDS) out = setAt(out, path, nfc);
  return out;
}

/** Map keys in NFC, copying only the objects (and arrays) on the way to a key that changes. */
function normalizeKeys<T>(v: T): T {
  if (Array.isArray(v)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      // Columns of numbers (a day's status lines) are stepped over without a call per entry.
      if (x === null || typeof x !== "object") continue;
      const nx = normalizeKeys(x);
      if (nx !== x) (copy ??= [...v])[i] = nx;
    }
    return (copy ?? v) as T;
  }
  if (!isObject(v)) return v;
  let copy: Record<string, unknown> | undefined;
  for (const k in v) {
    const x = v[k];
    const nk = nfc(k);
    const nx = x !== null && typeof x === "object" ? normalizeKeys(x) : x;
    if (!copy && (nk !== k || nx !== x)) {
      copy = {};
      for (const before in v) {
        if (before === k) break;
        copy[before] = v[before];
      }
    }
    if (copy) copy[nk] = nx;
  }
  return (copy ?? v) as T;
}

/** A copy of `v` with the strings at `path` (from its step `from` on) mapped; copies only along the way when one changes. */
function setAt<T>(v: T, path: readonly string[], f: (s: string) => string, from = 0): T {
  if (from === path.length) return (typeof v === "string" ? f(v) : v) as T;
  const head = path[from]!;
  if (head === "*") {
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const x = setAt(v[i], path, f, from + 1);
        if (x !== v[i]) (copy ??= [...v])[i] = x;
      }
      return (copy ?? v) as T;
    }
    if (isObject(v)) {
      let copy: Record<string, unknown> | undefined;
      for (const k in v) {
        const x = setAt(v[k], path, f, from + 1);
        if (x !== v[k]) (copy ??= { ...v })[k] = x;
      }
      return (copy ?? v) as T;
    }
    return v;
  }
  if (!isObject(v) || !(head in v)) return v;
  const next = setAt(v[head], path, f, from + 1);
  return (next === v[head] ? v : { ...v, [head]: next }) as T;
}
