import type { JsHistogram } from "hdr-histogram-js";
import { decodeHistogramMeasured, valuesAtRanks } from "./hdr/histogram.js";
import { identifierProblem, nfc, noteKeysPlain } from "./identifiers.js";
import type { ResultDocument } from "./result-document.js";
import { LIMITS } from "./result-limits.js";

/** One problem of a checked value: where (a JSON pointer) and what. */
export interface FieldError {
  /** JSON pointer of the offending field, e.g. "/run/nodes". */
  path: string;
  message: string;
}

/**
 * The result document's rules beyond JSON Schema (DESIGN.md: the contract states ranges and internal consistency):
 * text Postgres stores as given, numbers that agree with each other, histograms decoded within bounds. Pure: every
 * problem names its field as a JSON pointer, nothing is thrown.
 */

const pointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units: no "u" flag).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the class is all of ASCII, control characters included
const ASCII = /^[\x00-\x7f]*$/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is what it looks for
const NUL_OR_SURROGATE = /[\u0000\uD800-\uDFFF]/;
/** Printable ASCII: no NUL, no surrogate, no invisible character, already NFC (the names of nearly every key). */
const PLAIN_KEY = /^[\x20-\x7e]*$/;

/** Why a string cannot be stored as given (Postgres text and jsonb take no U+0000 and no lone surrogate), or null. */
function textProblem(s: string): string | null {
  // One scan for what the two checks below look for: nearly every string holds neither.
  if (!NUL_OR_SURROGATE.test(s)) return null;
  if (s.includes("\u0000")) return "contains U+0000 (NUL), which no text column stores";
  if (LONE_SURROGATE.test(s)) return "contains a lone UTF-16 surrogate (not Unicode text)";
  return null;
}

/** Why a key that is not plain ASCII cannot be a name, or null. */
function keyProblem(k: string, object: object): string | null {
  const p = textProblem(k) ?? identifierProblem(k);
  if (p) return `key ${p}`;
  if (ASCII.test(k)) return null;
  // Two keys that render the same are one name (model/identifiers.ts): the second is refused, not merged.
  const n = nfc(k);
  const same = Object.keys(object).find((other) => other !== k && nfc(other) === n);
  if (same !== undefined && same < k)
    return `key is ${JSON.stringify(same)} once normalized (Unicode NFC): two names that render the same`;
  return null;
}

/**
 * Every string and every map key of the document: storable text, keys of at most LIMITS.keyLength characters
 * (operation groups, percentiles, properties and return codes are names; a key is also an index entry).
 */
export function textProblems(doc: unknown): FieldError[] {
  const problems: FieldError[] = [];
  // Run for every document of every batch: paths are only spelled out for a problem (the keys on the way are kept on
  // a stack), and long columns of numbers are stepped over without allocating.
  const stack: (string | number)[] = [];
  const here = (last?: string) =>
    `/${[...stack, ...(last === undefined ? [] : [last])].map((s) => pointer(String(s))).join("/")}`.replace(
      /^\/$/,
      "/",
    );
  let keysPlain = true;
  const walk = (v: unknown): void => {
    if (problems.length >= 20) return;
    if (typeof v === "string") {
      const p = textProblem(v);
      if (p) problems.push({ path: here(), message: p });
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === "string" || (x !== null && typeof x === "object")) {
          stack.push(i);
          walk(x);
          stack.pop();
        }
      }
    } else if (v !== null && typeof v === "object") {
      for (const k in v) {
        if (k.length > LIMITS.keyLength) {
          problems.push({
            path: `${here()}/${pointer(k.slice(0, 40))}...`.replace(/^\/\//, "/"),
            message: `key name of ${k.length} characters, at most ${LIMITS.keyLength}`,
          });
          continue;
        }
        const plain = PLAIN_KEY.test(k);
        if (!plain) keysPlain = false;
        const p = plain ? null : keyProblem(k, v);
        if (p) {
          problems.push({ path: here(k), message: p });
          continue;
        }
        const child = (v as Record<string, unknown>)[k];
        if (typeof child === "string" || (child !== null && typeof child === "object")) {
          stack.push(k);
          walk(child);
          stack.pop();
        }
      }
    }
  };
  walk(doc);
  // Every key walked and plain: normalizeIdentifiers need not walk them again (model/identifiers.ts).
  if (keysPlain && problems.length === 0 && doc !== null && typeof doc === "object") noteKeysPlain(doc);
  return problems;
}

const PERCENTILE_KEY = /^\d{1,3}(\.\d+)?$/;

/** YCSB's operations done: every group but CLEANUP (thread clean-up) and Intended-* (the same operations, re-timed). */
const countsAsOperations = (group: string) => group !== "CLEANUP" && !group.startsWith("Intended-");

/**
 * Internal consistency of one document: published figures only from the reference loader, client index within
 * the phase's clients, times in order, min <= avg <= max, percentiles non-decreasing, and a throughput the
 * operations can account for.
 */
export function consistencyProblems(doc: ResultDocument, options: { allowPublished?: boolean } = {}): FieldError[] {
  const problems: FieldError[] = [];
  if (doc.run.source.kind === "published" && !options.allowPublished) {
    problems.push({
      path: "/run/source/kind",
      message:
        "published figures enter only through the reference loader (prisma/reference, ycsb-lab ingest --reference), never as a result document",
    });
  }
  if (doc.client.count !== doc.phase.clients)
    problems.push({
      path: "/client/count",
      message: `must equal /phase/clients (${doc.phase.clients}), got ${doc.client.count}`,
    });
  if (doc.client.index >= doc.client.count)
    problems.push({
      path: "/client/index",
      message: `must be below /client/count (${doc.client.count}): clients are numbered 0..${doc.client.count - 1}, got ${doc.client.index}`,
    });
  if (Date.parse(doc.finishedAt) < Date.parse(doc.startedAt))
    problems.push({ path: "/finishedAt", message: `${doc.finishedAt} is before /startedAt ${doc.startedAt}` });
  if (doc.run.finishedAt !== undefined && Date.parse(doc.run.finishedAt) < Date.parse(doc.run.startedAt)) {
    problems.push({
      path: "/run/finishedAt",
      message: `${doc.run.finishedAt} is before /run/startedAt ${doc.run.startedAt}`,
    });
  }

  let operations = 0;
  for (const [group, o] of Object.entries(doc.result.operations)) {
    const at = `/result/operations/${pointer(group)}`;
    if (countsAsOperations(group)) operations += o.count;
    if (o.minUs !== null && o.maxUs !== null && o.minUs > o.maxUs)
      problems.push({ path: `${at}/minUs`, message: `${o.minUs} is above maxUs ${o.maxUs}` });
    if (o.avgUs !== null && o.minUs !== null && o.avgUs < o.minUs)
      problems.push({ path: `${at}/avgUs`, message: `${o.avgUs} is below minUs ${o.minUs}` });
    if (o.avgUs !== null && o.maxUs !== null && o.avgUs > o.maxUs)
      problems.push({ path: `${at}/avgUs`, message: `${o.avgUs} is above maxUs ${o.maxUs}` });
    let previous: { p: number; value: number } | undefined;
    const percentiles: { key: string; p: number; value: number }[] = [];
    for (const [key, value] of Object.entries(o.percentilesUs)) {
      const p = Number(key);
      if (!PERCENTILE_KEY.test(key) || !(p > 0 && p <= 100))
        problems.push({
          path: `${at}/percentilesUs/${pointer(key)}`,
          message: 'key must be a percentile in (0, 100], as YCSB prints it ("99.9")',
        });
      else percentiles.push({ key, p, value });
    }
    for (const q of percentiles.sort((a, b) => a.p - b.p)) {
      if (previous && q.value < previous.value)
        problems.push({
          path: `${at}/percentilesUs/${pointer(q.key)}`,
          message: `p${q.key} ${q.value} is below p${previous.p} ${previous.value}: percentiles cannot decrease`,
        });
      previous = { p: q.p, value: q.value };
    }
  }

  // YCSB prints Throughput(ops/sec) = operations done x 1000 / RunTime(ms), and every operation done is timed in a
  // group (a failed one in <OP>-FAILED, a read-modify-write also as READ and UPDATE): so the groups' counts are at
  // least the operations done. 1% and one operation of slack for rounding of the printed figures.
  const { runtimeMs, throughputOpsSec } = doc.result.overall;
  if (runtimeMs > 0 && Object.keys(doc.result.operations).length > 0) {
    const claimed = (throughputOpsSec * runtimeMs) / 1000;
    if (claimed > operations * 1.01 + 1) {
      problems.push({
        path: "/result/overall/throughputOpsSec",
        message: `${throughputOpsSec} ops/s over ${runtimeMs} ms is ${Math.round(claimed)} operations, but the operation groups counted ${operations}`,
      });
    }
  }
  return problems;
}

/**
 * The decoding work one request may cause (DESIGN.md: bounded decoding). Each histogram is bounded by itself
 * (model/hdr/histogram-bounds.ts); the budget bounds their number and total inflated size over a whole batch.
 */
export class HistogramBudget {
  /** A batch of 1,000 documents of a dozen operation groups each. */
  static readonly MAX_HISTOGRAMS = 12_000;
  /** About 3 KB per YCSB histogram inflated (measured on test/fixtures/ycsb): 64 MiB is 20,000 of them. */
  static readonly MAX_INFLATED_BYTES = 64 * 2 ** 20;
  histograms = 0;
  inflatedBytes = 0;
  exhausted(): string | null {
    if (this.histograms > HistogramBudget.MAX_HISTOGRAMS)
      return `more than ${HistogramBudget.MAX_HISTOGRAMS} histograms in one request`;
    if (this.inflatedBytes > HistogramBudget.MAX_INFLATED_BYTES)
      return `histograms of one request inflate to more than ${HistogramBudget.MAX_INFLATED_BYTES} bytes`;
    return null;
  }
}

/**
 * Every histogram must decode within bounds (one that does not would fail each later query of its phase, not this
 * ingest), be of an operation group the document printed, and agree with what YCSB printed for it: YCSB records each
 * group in its own histogram (a failed READ in READ-FAILED, a NOT_FOUND one in READ-NOT_FOUND, the intended-time
 * measurement in Intended-READ, each with its own Operations line), and prints the group's Operations count and
 * percentiles from that histogram. So its total count must equal the group's count, and each printed percentile must
 * be the histogram's, within one recording of the percentile's rank and one bucket (HdrHistogram 2.1.4, which YCSB
 * 0.17.0 ships, rounds the rank to nearest where later versions round up; their p99.9 differ by a bucket or more).
 */
export function histogramProblems(
  histograms: Record<string, string>,
  budget: HistogramBudget = new HistogramBudget(),
  operations?: ResultDocument["result"]["operations"],
): FieldError[] {
  const problems: FieldError[] = [];
  for (const [operation, encoded] of Object.entries(histograms)) {
    const at = `/hdrHistograms/${pointer(operation)}`;
    budget.histograms++;
    const over = budget.exhausted();
    if (over) return [...problems, { path: at, message: `not decoded: ${over}; send fewer documents per request` }];
    const group = operations?.[operation];
    if (operations && !group) {
      problems.push({
        path: at,
        message: `no operation group ${operation} in /result/operations: a histogram is only of an operation the document ran`,
      });
      continue;
    }
    let h: JsHistogram;
    try {
      const decoded = decodeHistogramMeasured(encoded);
      budget.inflatedBytes += decoded.inflatedBytes;
      h = decoded.histogram;
    } catch (err) {
      problems.push({ path: at, message: `not an HDR histogram: ${(err as Error).message}` });
      continue;
    }
    if (h.totalCount > LIMITS.count)
      problems.push({ path: at, message: `total count ${h.totalCount} is beyond ${LIMITS.count}` });
    else if (group) problems.push(...histogramAgreement(h, group, operation, at));
  }
  return problems;
}

/** A histogram against the group YCSB printed from it: the same count, the same percentiles (HDR's precision). */
function histogramAgreement(
  h: JsHistogram,
  group: ResultDocument["result"]["operations"][string],
  operation: string,
  at: string,
): FieldError[] {
  const groupAt = `/result/operations/${pointer(operation)}`;
  if (h.totalCount !== group.count) {
    return [
      {
        path: at,
        message: `holds ${h.totalCount} recordings, but ${groupAt}/count is ${group.count}: YCSB prints a group's count from its own histogram`,
      },
    ];
  }
  if (h.totalCount === 0) return [];
  const printed = Object.entries(group.percentilesUs).filter(
    ([k]) => PERCENTILE_KEY.test(k) && Number(k) > 0 && Number(k) <= 100,
  );
  const n = h.totalCount;
  const ranks = printed.flatMap(([k]) => {
    const exact = (Number(k) / 100) * n;
    return [Math.max(1, Math.floor(exact) - 1), Math.min(n, Math.ceil(exact) + 1)];
  });
  const values = valuesAtRanks(h, ranks);
  const problems: FieldError[] = [];
  printed.forEach(([k, value], i) => {
    const lo = h.lowestEquivalentValue(values[2 * i]!);
    const hi = h.highestEquivalentValue(values[2 * i + 1]!);
    if (value < lo || value > hi) {
      problems.push({
        path: at,
        message: `p${k} is ${lo}..${hi} µs in the histogram, but ${groupAt}/percentilesUs/${pointer(k)} printed ${value}: the histogram is not the one YCSB printed from`,
      });
    }
  });
  return problems;
}
