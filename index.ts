// The library entry: what other infrastructure repos import. Only pure model and Pulumi components
// live here; the runner, API and dashboard are not part of the library surface.
export * from "./model/index.js";
