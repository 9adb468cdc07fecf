export * from "./config.js";
export * from "./schema.js";
export * from "./readiness.js";
export * from "./jvm.js";
export * from "./binding.js";
export * from "./runtime.js";
