import { createHash } from "node:crypto";
import type { ResultDocument } from "../../model/result-document.js";

/** The one source of every measured run. */
export const MEASURED_SOURCE = "measured";

/** A run's source: measured, or one published study (by its seed, else its citation's hash). */
export function sourceIdOf(doc: ResultDocument): string {
  const s = doc.run.source;
  if (s.kind === "measured") return MEASURED_SOURCE;
  return `published:${s.seed ?? createHash("sha256").update(s.citation).digest("hex").slice(0, 16)}`;
}
