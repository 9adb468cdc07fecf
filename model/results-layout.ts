/**
 * Where a run's objects live in the results store (S3 bucket/prefix or a folder), as pure functions.
 * The runner writes with these, the API's S3 import reads with them:
 *   <prefix>/runs/<runId>/manifest.json
 *   <prefix>/runs/<runId>/phases/<phaseIndex>-<phaseName>/client-<i>/result.json (+ stdout.txt, stderr.txt, hdr/*.hdr)
 */
export const RESULT_FILE = "result.json";
export const MANIFEST_FILE = "manifest.json";

/** Joins an optional prefix ("bench/2025", "bench/2025/", "") and a relative key with exactly one "/". */
export function withPrefix(prefix: string | undefined, key: string): string {
  const p = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  return p ? `${p}/${key}` : key;
}

export const runPrefix = (runId: string): string => `runs/${runId}/`;
export const manifestKey = (runId: string): string => `${runPrefix(runId)}${MANIFEST_FILE}`;
export const phaseDir = (runId: string, phaseIndex: number, phaseName: string): string =>
  `${runPrefix(runId)}phases/${phaseIndex}-${phaseName}/`;
export const clientDir = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${phaseDir(runId, phaseIndex, phaseName)}client-${clientIndex}/`;
export const resultKey = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${clientDir(runId, phaseIndex, phaseName, clientIndex)}${RESULT_FILE}`;
export const stdoutKey = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${clientDir(runId, phaseIndex, phaseName, clientIndex)}stdout.txt`;
export const stderrKey = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number): string =>
  `${clientDir(runId, phaseIndex, phaseName, clientIndex)}stderr.txt`;
/** YCSB writes one interval log per operation group: hdr/<OPERATION>.hdr. */
export const hdrLogKey = (runId: string, phaseIndex: number, phaseName: string, clientIndex: number, operation: string): string =>
  `${clientDir(runId, phaseIndex, phaseName, clientIndex)}hdr/${operation}.hdr`;

export type ResultsObject =
  | { kind: "manifest"; runId: string }
  | { kind: "result" | "stdout" | "stderr"; runId: string; phaseIndex: number; phaseName: string; clientIndex: number }
  | { kind: "hdr"; runId: string; phaseIndex: number; phaseName: string; clientIndex: number; operation: string };

const CLIENT_OBJECT = /^runs\/([^/]+)\/phases\/(\d+)-([^/]+)\/client-(\d+)\/(result\.json|stdout\.txt|stderr\.txt|hdr\/([^/]+)\.hdr)$/;
const MANIFEST = /^runs\/([^/]+)\/manifest\.json$/;

/** Reads a key relative to the prefix; undefined for anything else in the bucket (barriers, plan.json, strangers). */
export function parseResultsKey(relativeKey: string): ResultsObject | undefined {
  const m = MANIFEST.exec(relativeKey);
  if (m) return { kind: "manifest", runId: m[1]! };
  const c = CLIENT_OBJECT.exec(relativeKey);
  if (!c) return undefined;
  const base = { runId: c[1]!, phaseIndex: Number(c[2]), phaseName: c[3]!, clientIndex: Number(c[4]) };
  const file = c[5]!;
  if (file === "result.json") return { kind: "result", ...base };
  if (file === "stdout.txt") return { kind: "stdout", ...base };
  if (file === "stderr.txt") return { kind: "stderr", ...base };
  return { kind: "hdr", ...base, operation: c[6]! };
}

/** Strips the prefix from a full key; undefined when the key is not under it. */
export function relativeToPrefix(prefix: string | undefined, key: string): string | undefined {
  const p = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  if (!p) return key;
  return key.startsWith(`${p}/`) ? key.slice(p.length + 1) : undefined;
}
