export * from "./engine.js";
export * from "./presets.js";
export * from "./workloads.js";
export * from "./result-document.js";
export * from "./scenario.js";
export * from "./scenarios.js";
