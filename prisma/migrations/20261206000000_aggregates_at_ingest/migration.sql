-- Aggregates kept at ingest (api/store/aggregates/), so a view's cold answer reads one row per thing it draws instead
-- of recomputing it from every client result. Filled for rows stored before by the rebuild that runs when a store
-- opens (api/store/aggregates/rebuild.ts: the HDR merges and the configuration identity are the model's, in code).

-- Each phase's operation groups over its clients (model/aggregate/phase.ts aggregateOperation), with the merged HDR
-- histogram where every client had one.
CREATE TABLE "phase_operations" (
  "phase_id" INTEGER NOT NULL REFERENCES "phases"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "operation" TEXT NOT NULL,
  "clients" INTEGER NOT NULL,
  "count" DOUBLE PRECISION NOT NULL,
  "avg_us" DOUBLE PRECISION,
  "min_us" DOUBLE PRECISION,
  "max_us" DOUBLE PRECISION,
  "percentiles_us" JSONB NOT NULL,
  "percentile_method" TEXT NOT NULL,
  "client_percentiles_us" JSONB NOT NULL,
  "average_of_client_averages_us" DOUBLE PRECISION,
  "hdr_histogram" TEXT,
  PRIMARY KEY ("phase_id", "operation")
);

-- Which configuration (repeats of one load level) and which peak group (one deployment's workload over its load
-- levels) a phase belongs to: ids of the model's keys (model/aggregate/groups.ts).
ALTER TABLE "phases" ADD COLUMN "configuration_id" TEXT;
ALTER TABLE "phases" ADD COLUMN "peak_id" TEXT;
CREATE INDEX "phases_configuration_id_idx" ON "phases"("configuration_id");
CREATE INDEX "phases_peak_id_idx" ON "phases"("peak_id");

-- One row per configuration: what /sweeps draws as a point and /repeatability as a group, for include=valid and
-- include=all (docs/api.md "Aggregates kept at ingest").
CREATE TABLE "configuration_aggregates" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "kind" TEXT NOT NULL,
  "scenario" TEXT NOT NULL,
  "engine" TEXT NOT NULL,
  "engine_version" TEXT NOT NULL,
  "preset" TEXT NOT NULL,
  "nodes" INTEGER NOT NULL,
  "source_id" TEXT NOT NULL,
  "source_kind" TEXT NOT NULL,
  "citation" TEXT,
  "workload" TEXT,
  "phase" TEXT NOT NULL,
  "threads_per_client" INTEGER NOT NULL,
  "clients" INTEGER NOT NULL,
  "target" DOUBLE PRECISION,
  "operation_count" INTEGER,
  "operation_count_per" TEXT,
  "phases" INTEGER NOT NULL,
  "first_run_id" TEXT NOT NULL,
  "runs" JSONB NOT NULL,
  "summary_valid" JSONB NOT NULL,
  "summary_all" JSONB NOT NULL
);
CREATE INDEX "configuration_aggregates_scenario_idx" ON "configuration_aggregates"("scenario");
CREATE INDEX "configuration_aggregates_engine_idx" ON "configuration_aggregates"("engine");

-- One row per peak group: what /scaling draws as a point and /durability as a cell (each repeat at its peak phase).
CREATE TABLE "peak_aggregates" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "kind" TEXT NOT NULL,
  "scenario" TEXT NOT NULL,
  "engine" TEXT NOT NULL,
  "preset" TEXT NOT NULL,
  "nodes" INTEGER NOT NULL,
  "source_id" TEXT NOT NULL,
  "source_kind" TEXT NOT NULL,
  "citation" TEXT,
  "workload" TEXT,
  "operation_count" INTEGER,
  "operation_count_per" TEXT,
  "phases" INTEGER NOT NULL,
  "summary_valid" JSONB NOT NULL,
  "summary_all" JSONB NOT NULL
);
CREATE INDEX "peak_aggregates_scenario_idx" ON "peak_aggregates"("scenario");
CREATE INDEX "peak_aggregates_engine_idx" ON "peak_aggregates"("engine");

-- Groups a write changed ("c:<configuration id>", "p:<peak id>"): recomputed once, whatever the number of writes
-- that touched them, before the next view reads them or within a second (api/store/aggregates/settle.ts).
CREATE TABLE "dirty_groups" (
  "id" TEXT NOT NULL PRIMARY KEY
);

-- Which version of each aggregate the rows were computed by: a store opened by a newer version rebuilds them.
CREATE TABLE "aggregate_versions" (
  "name" TEXT NOT NULL PRIMARY KEY,
  "version" INTEGER NOT NULL
);
