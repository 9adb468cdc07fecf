/** One colour per engine everywhere, and one look for the seeds' published figures (dashed, triangles). */
import { ENGINES, type Engine } from "../../model/engine.js";

const ENGINE_COLOURS: Record<Engine, string> = {
  cassandra: "#1f77b4",
  mongodb: "#2ca02c",
  couchbase: "#d62728",
  hbase: "#9467bd",
};

const FALLBACK = ["#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];

export function engineColour(engine: string, index = 0): string {
  return (ENGINES as readonly string[]).includes(engine) ? ENGINE_COLOURS[engine as Engine] : FALLBACK[index % FALLBACK.length]!;
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

export const KNEE_COLOUR = "#ff7f0e";
export const DIP_COLOUR = "#d62728";
export const IDEAL_COLOUR = "#7f7f7f";
