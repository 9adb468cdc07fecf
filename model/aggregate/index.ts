export * from "./phase.js";
export * from "./scaling.js";
