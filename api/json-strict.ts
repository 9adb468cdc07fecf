/**
 * A JSON text's first duplicate key (pure). JSON.parse keeps the last of `"id":"A","id":"B"` without a word, so a
 * document would be stored as B while its sender, or another parser, reads A (RFC 8259 §4: names "SHOULD be unique";
 * behaviour with duplicates is unpredictable across implementations). The API refuses such a body, naming the key.
 * One pass over the text: strings are skipped with indexOf, keys decoded only when they hold an escape.
 */
export interface DuplicateKey {
  /** JSON pointer of the repeated member. */
  path: string;
  key: string;
}

const pointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

interface Frame {
  object: boolean;
  keys: Set<string> | null;
  /** The member being read (object) or the element's index (array). */
  at: string | number;
  /** An object is waiting for a key (after "{" or ","). */
  expectKey: boolean;
}

/** Where the string starting at `start` (its opening quote) ends: the index after its closing quote. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return text.length;
    let backslashes = 0;
    for (let k = q - 1; k > start && text.charCodeAt(k) === 92; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

export function duplicateKey(text: string): DuplicateKey | null {
  const stack: Frame[] = [];
  const path = () => `/${stack.map((f) => pointer(String(f.at))).join("/")}`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        const raw = text.slice(i + 1, end - 1);
        let key = raw;
        if (raw.includes("\\")) {
          try {
            key = JSON.parse(`"${raw}"`) as string;
          } catch {
            return null; // not JSON: the parser says so
          }
        }
        top.keys ??= new Set();
        top.at = key;
        if (top.keys.has(key)) return { path: path(), key };
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end - 1;
    } else if (c === 123 /* { */) {
      stack.push({ object: true, keys: null, at: "", expectKey: true });
    } else if (c === 91 /* [ */) {
      stack.push({ object: false, keys: null, at: 0, expectKey: false });
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
    } else if (c === 44 /* , */) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return null;
}

/**
 * At least as many as the JSON text's members, and as many when no string holds an escaped quote right before a
 * colon: every member's key ends in `"` followed (after JSON whitespace, RFC 8259 §2) by its one ":", so the key's
 * closing quote and that colon are one occurrence of `"<whitespace>:` each. Text written without whitespace there
 * (as JSON.stringify writes it) is counted by a native search for `":`; any other text by the regular expression.
 */
function membersAtLeast(text: string): number {
  if (/"[ \t\n\r]+:/.test(text)) return text.match(/"[ \t\n\r]*:/g)?.length ?? 0;
  let n = 0;
  for (let i = text.indexOf('":'); i >= 0; i = text.indexOf('":', i + 2)) n++;
  return n;
}

/** The properties of a parsed value's objects, at any depth (columns of plain values stepped over). */
function propertiesOf(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === "object") n += propertiesOf(x);
    }
    return n;
  }
  for (const k in v) {
    n++;
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === "object") n += propertiesOf(x);
  }
  return n;
}

/**
 * Whether the text of a value JSON.parse read may repeat a key in one of its objects: the parser keeps one property
 * per name, so a repeated key leaves the value fewer properties than the text has members. False only when the
 * properties equal membersAtLeast's count, which is never below the members: then no member was dropped. True
 * otherwise (a repeated key, or a string holding `\":`): duplicateKey's scan then decides and names the member.
 */
export function repeatsKey(text: string, parsed: unknown): boolean {
  try {
    return propertiesOf(parsed) !== membersAtLeast(text);
  } catch {
    return true; // too deep to count (a stack overflow): duplicateKey's scan decides
  }
}

/**
 * A route's own reading of its JSON bodies (route config `readBody`, app.ts): the value read, or undefined to have the
 * body read by the service's strict reading. It returns only bodies that pass every check the route makes, so every
 * error still comes from the strict reading and the route's own check.
 */
export type ReadBodyElsewhere = (text: string) => Promise<unknown>;
