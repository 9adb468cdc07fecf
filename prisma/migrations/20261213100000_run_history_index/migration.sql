-- Each configuration's newest runs through one index (api/store/queries/history-runs.ts): the Regressions view's
-- answer reads the runs it draws, not every run of the configuration.
CREATE INDEX "runs_history_idx" ON "runs"("source_id", "scenario", "engine", "preset", "nodes", "data_instance_type", "started_at" DESC);
