// The Pulumi components and the pure planning beside them: what `import { BenchmarkScenario } from "ycsb-lab"` gives.
export { BenchmarkNetwork, type BenchmarkNetworkArgs } from "./network.js";
export { ResultsBucket, type ResultsBucketArgs } from "./results-bucket.js";
export { DatabaseCluster, type DatabaseClusterArgs } from "./database-cluster.js";
export { ClientFleet, type ClientFleetArgs, type ClientCount, resolveClientCount } from "./client-fleet.js";
export { BenchmarkScenario, type BenchmarkScenarioArgs, planScenario, type ScenarioPlan } from "./benchmark-scenario.js";
// The zone's capacity lookup, by the name a program's pulumi.runtime.setMocks answers it under.
export { SPOT_PLACEMENT_SCORES_TOKEN, chooseZone, type ZoneChoice, type SpotPlacementScore } from "./zone-choice.js";
export { estimateCost, type CostEstimate } from "./cost.js";
export { runLayout, type RunLayout } from "./run-layout.js";
export type { MongoTopology } from "../engines/node-context.js";
export { DashboardService, type DashboardServiceArgs, type DashboardDatabaseArgs, type DashboardLoadBalancerArgs, planDashboard, type DashboardPlan } from "./dashboard-service.js";
export { estimateDashboardCost, type DashboardCostEstimate } from "./cost.js";
