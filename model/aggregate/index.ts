export * from "./phase.js";
export * from "./scaling.js";
export * from "./rules.js";
export * from "./repeats.js";
export * from "./latency-distribution.js";
export * from "./groups.js";
