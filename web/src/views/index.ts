import type { ViewName } from "../url-state.js";
import type { View } from "../view.js";
import { capacityView } from "./capacity.js";
import { compareView } from "./compare.js";
import { durabilityView } from "./durability.js";
import { latencyView } from "./latency.js";
import { regressionsView } from "./regressions.js";
import { repeatabilityView } from "./repeatability.js";
import { runsView } from "./runs.js";
import { scalingView } from "./scaling.js";
import { studyView } from "./study.js";
import { sweepsView } from "./sweeps.js";
import { timeseriesView } from "./timeseries.js";

export const VIEW_MODULES: Record<ViewName, View> = {
  runs: runsView,
  compare: compareView,
  regressions: regressionsView,
  scaling: scalingView,
  durability: durabilityView,
  sweeps: sweepsView,
  latency: latencyView,
  timeseries: timeseriesView,
  repeatability: repeatabilityView,
  capacity: capacityView,
  study: studyView,
};
