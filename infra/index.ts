// The Pulumi components and the pure planning beside them: what `import { BenchmarkScenario } from "ycsb-lab"` gives.

export type { MongoTopology } from "../engines/node-context.js";
export {
  BenchmarkScenario,
  type BenchmarkScenarioArgs,
  planScenario,
  type ScenarioPlan,
} from "./benchmark-scenario.js";
export { type ClientCount, ClientFleet, type ClientFleetArgs, resolveClientCount } from "./client-fleet.js";
export { type CostEstimate, type DashboardCostEstimate, estimateCost, estimateDashboardCost } from "./cost.js";
export {
  type DashboardDatabaseArgs,
  type DashboardLoadBalancerArgs,
  type DashboardPlan,
  DashboardService,
  type DashboardServiceArgs,
  planDashboard,
} from "./dashboard-service.js";
export { DatabaseCluster, type DatabaseClusterArgs } from "./database-cluster.js";
export { BenchmarkNetwork, type BenchmarkNetworkArgs } from "./network.js";
export { ResultsBucket, type ResultsBucketArgs } from "./results-bucket.js";
export { type RunLayout, runLayout } from "./run-layout.js";
// The zone's capacity lookup, by the name a program's pulumi.runtime.setMocks answers it under.
export { chooseZone, SPOT_PLACEMENT_SCORES_TOKEN, type SpotPlacementScore, type ZoneChoice } from "./zone-choice.js";
