-- Each run's headline (its phase count, workloads and peak) kept on its row (api/store/aggregates/run-headlines.ts):
-- the runs explorer and the timeline read it instead of every phase of the runs they list. Filled for the runs stored
-- before it when a store is opened (api/store/aggregates/rebuild.ts, "run-headlines"); until then, and wherever a write
-- is still to be settled, a reader counts the headline from the run's phases.
ALTER TABLE "runs" ADD COLUMN "headline" JSONB;
