/** Pieces several views share: published-series labels, dataset looks, axis formats. */
import type { RunSource } from "../api.js";
import { engineColour, seriesLook } from "../palette.js";

/** "cassandra (measured)" or "cassandra: Lineate 2014, Table 2": published series always carry their citation. */
export function seriesLabel(name: string, source: RunSource): string {
  return source.kind === "published" ? `${name}: ${source.citation ?? `seed ${source.seed ?? "?"}`}` : `${name} (measured)`;
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
