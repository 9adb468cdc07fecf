export * from "./groups.js";
export * from "./latency-distribution.js";
export * from "./phase.js";
export * from "./repeats.js";
export * from "./rules.js";
export * from "./scaling.js";
