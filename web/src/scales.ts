/**
 * Linear or log axes: series that span more than a decade (seed 002's Couchbase at 1.3 M ops/s over Cassandra and
 * MongoDB at 50-90 k, drawn on top of each other) flatten on a linear axis, so such axes are logarithmic unless the
 * URL says otherwise (`scale=linear|log`); within a decade a log axis shows nothing a linear one does not (seed 004's
 * p99 axis was log over a tenth of a decade).
 */
import { filterSelect } from "./ui.js";

/** One decade: beyond a ratio of 10 between the largest and smallest positive value, a linear axis hides the small. */
export const LOG_SPAN_RATIO = 10;

export type ScaleChoice = "auto" | "log" | "linear";

/** Decades between the smallest and largest positive finite value (0 for fewer than one). */
export function decadesSpanned(values: readonly (number | null | undefined)[]): number {
  let min = Infinity;
  let max = 0;
  for (const v of values) {
    if (v === null || v === undefined || !Number.isFinite(v) || v <= 0) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return max > 0 && min < Infinity ? Math.log10(max / min) : 0;
}

export function scaleChoice(param: string | undefined): ScaleChoice {
  return param === "log" || param === "linear" ? param : "auto";
}

/** The axis type for these values: what the URL asks, else log when they span more than a decade. */
export function axisType(
  choice: ScaleChoice,
  values: readonly (number | null | undefined)[],
): "logarithmic" | "linear" {
  if (choice === "log") return "logarithmic";
  if (choice === "linear") return "linear";
  return decadesSpanned(values) > Math.log10(LOG_SPAN_RATIO) ? "logarithmic" : "linear";
}

/** The view's axis control, bound to `scale` in the URL. */
export function scaleControl(current: string | undefined, onChange: (value: string) => void): HTMLLabelElement {
  return filterSelect(
    "scale",
    "value axis",
    [
      { value: "log", label: "log" },
      { value: "linear", label: "linear" },
    ],
    current === "log" || current === "linear" ? current : undefined,
    onChange,
    "auto (log beyond a decade)",
  );
}
