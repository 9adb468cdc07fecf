/**
 * Colours that stay apart for every viewer: Okabe & Ito's colour-blind-safe set ("Color Universal Design", 2008) and
 * Paul Tol's, chosen so that every pair stays at CIEDE2000 >= 17 under simulated deuteranopia (Machado et al. 2009)
 * and each line keeps a 3:1 contrast on white (WCAG 2.1, 1.4.11). The old Tableau colours merged Couchbase with
 * MongoDB (red/green) and Cassandra with HBase (blue/purple). Published figures keep their own look (dashed, triangles).
 */
import { ENGINES, type Engine } from "../../model/engine.js";

const ENGINE_COLOURS: Record<Engine, string> = {
  cassandra: "#0072B2",
  couchbase: "#D55E00",
  mongodb: "#117733",
  hbase: "#CC79A7",
};

/** One colour per series where the series are not engines (runs compared, clients, operations), in this order. */
export const SERIES_COLOURS = ["#0072B2", "#D55E00", "#117733", "#CC79A7", "#000000", "#332288", "#882255"] as const;

/** Beyond the colours, the n-th round of them changes point style and dash, so no two series look the same. */
const ROUND_STYLES = ["circle", "rectRot", "crossRot", "triangle"] as const;
const ROUND_DASHES: (number[] | undefined)[] = [undefined, [8, 3], [2, 2], [12, 3, 2, 3]];

export function engineColour(engine: string, index = 0): string {
  return (ENGINES as readonly string[]).includes(engine) ? ENGINE_COLOURS[engine as Engine] : seriesColour(index);
}

export function seriesColour(index: number): string {
  return SERIES_COLOURS[index % SERIES_COLOURS.length]!;
}

export interface SeriesLook {
  borderColor: string;
  backgroundColor: string;
  borderDash?: number[];
  pointStyle: "circle" | "triangle" | "crossRot" | "rectRot";
  pointRadius: number;
}

/** Measured series are solid circles; published ones dashed triangles, so an overlay is never mistaken for ours. */
export function seriesLook(colour: string, published: boolean): SeriesLook {
  return published
    ? { borderColor: colour, backgroundColor: `${colour}66`, borderDash: [6, 4], pointStyle: "triangle", pointRadius: 5 }
    : { borderColor: colour, backgroundColor: `${colour}cc`, pointStyle: "circle", pointRadius: 3 };
}

/** The look of the index-th of several series (runs compared): its colour, and past the palette another point and dash. */
export function indexedLook(index: number): SeriesLook {
  const round = Math.floor(index / SERIES_COLOURS.length) % ROUND_STYLES.length;
  const colour = seriesColour(index);
  const dash = ROUND_DASHES[round];
  return { borderColor: colour, backgroundColor: `${colour}cc`, pointStyle: ROUND_STYLES[round]!, pointRadius: 4, ...(dash ? { borderDash: dash } : {}) };
}

export const KNEE_COLOUR = "#E69F00";
export const DIP_COLOUR = "#D55E00";
export const IDEAL_COLOUR = "#7f7f7f";
export const BASELINE_COLOUR = "#000000";
