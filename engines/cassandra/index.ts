export * from "./binding.js";
export * from "./config.js";
export * from "./jvm.js";
export * from "./readiness.js";
export * from "./runtime.js";
export * from "./schema.js";
