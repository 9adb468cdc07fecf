// The library entry: what other infrastructure repos import. Only the pure model and the Pulumi components
// live here; the runner, API and dashboard are not part of the library surface (they run from a checkout).

export * from "./infra/index.js";
export * from "./model/index.js";
