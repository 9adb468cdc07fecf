/** Pieces several views share: published-series labels, dataset looks, axis formats. */
import type { RunSource } from "../api.js";
import { engineColour, seriesLook } from "../palette.js";

/** "cassandra (measured)" or "cassandra: End Point Corporation 2015 (seed 000)": published series always carry their citation. */
export function seriesLabel(name: string, source: RunSource): string {
  if (source.kind !== "published") return `${name} (measured)`;
  return `${name}: ${source.citation ? shortCitation(source.citation, source.seed) : `seed ${source.seed ?? "?"}`}`;
}

/**
 * A legend-sized citation: `Authors, "Title", ..., 2015` -> "Authors 2015 (seed 000)" (a chart legend does not wrap,
 * and five seeds' full titles pushed each other off the chart). Anything of another shape is kept whole.
 */
export function shortCitation(citation: string, seed?: string): string {
  const comma = citation.indexOf(", ");
  const year = /, (\d{4})$/.exec(citation);
  if (comma <= 0 || !year) return citation;
  return `${citation.slice(0, comma)} ${year[1]}${seed ? ` (seed ${seed})` : ""}`;
}

export function lookFor(engine: string, source: RunSource, index = 0) {
  return seriesLook(engineColour(engine, index), source.kind === "published");
}

export function isPublished(source: RunSource): boolean {
  return source.kind === "published";
}

/** Shared options for dense series (STYLE.md: parsing false, normalized true). */
export const DENSE = { parsing: false as const, normalized: true as const, animation: false as const };

export function axisTitle(text: string) {
  return { display: true, text };
}

export function msLabel(us: number | null | undefined): number | null {
  return us === null || us === undefined ? null : us / 1000;
}
