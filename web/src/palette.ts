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

export type PointStyle = "circle" | "triangle" | "crossRot" | "rectRot" | "rect" | "star" | "cross";

export interface SeriesLook {
  borderColor: string;
  backgroundColor: string;
  borderDash?: number[];
  pointStyle: PointStyle;
  pointRadius: number;
}

/** Measured series are solid circles; published ones dashed triangles, so an overlay is never mistaken for ours. */
export function seriesLook(colour: string, published: boolean): SeriesLook {
  return published
    ? {
        borderColor: colour,
        backgroundColor: `${colour}66`,
        borderDash: [6, 4],
        pointStyle: "triangle",
        pointRadius: 5,
      }
    : { borderColor: colour, backgroundColor: `${colour}cc`, pointStyle: "circle", pointRadius: 3 };
}

/** The look of the index-th of several series (runs compared): its colour, and past the palette another point and dash. */
export function indexedLook(index: number): SeriesLook {
  const round = Math.floor(index / SERIES_COLOURS.length) % ROUND_STYLES.length;
  const colour = seriesColour(index);
  const dash = ROUND_DASHES[round];
  return {
    borderColor: colour,
    backgroundColor: `${colour}cc`,
    pointStyle: ROUND_STYLES[round]!,
    pointRadius: 4,
    ...(dash ? { borderDash: dash } : {}),
  };
}

export const KNEE_COLOUR = "#E69F00";
export const DIP_COLOUR = "#D55E00";
export const IDEAL_COLOUR = "#7f7f7f";
export const BASELINE_COLOUR = "#000000";

/** Markers in the order a colour's next series takes them; published series start at the triangle, measured at the circle. */
const MARKERS: Record<"measured" | "published", PointStyle[]> = {
  measured: ["circle", "rect", "star", "rectRot", "cross", "triangle"],
  published: ["triangle", "rectRot", "rect", "star", "circle", "crossRot"],
};
/** Dashes after every marker of a colour was used: measured series solid first, published ones dashed (never solid). */
const DASHES: Record<"measured" | "published", (number[] | undefined)[]> = {
  measured: [undefined, [2, 2], [10, 3, 2, 3]],
  published: [
    [6, 4],
    [12, 4],
    [3, 6],
  ],
};

/**
 * Looks for series drawn in one chart, every one its own colour, dash and marker together: the colour says the engine
 * (or the index palette where series are not engines), and series that share a colour take the next marker, then the
 * next dash. Measured series are solid circles first, published ones dashed triangles first, so an overlay is never
 * mistaken for a measurement. Three Cassandra series (seeds 000, 001, 002) were one look before.
 */
export function distinctLooks(series: readonly { colour: string; published: boolean }[]): SeriesLook[] {
  const taken = new Map<string, number>();
  return series.map((s) => {
    const kind = s.published ? "published" : "measured";
    const key = `${s.colour}|${kind}`;
    const k = taken.get(key) ?? 0;
    taken.set(key, k + 1);
    const markers = MARKERS[kind];
    const dash = DASHES[kind][Math.floor(k / markers.length) % DASHES[kind].length];
    return {
      borderColor: s.colour,
      backgroundColor: `${s.colour}${s.published ? "66" : "cc"}`,
      pointStyle: markers[k % markers.length]!,
      pointRadius: s.published ? 5 : 4,
      ...(dash ? { borderDash: dash } : {}),
    };
  });
}
