-- Kept by ingest with the model's rules (model/aggregate/rules.ts): the slowest client's runtime and the worst client
-- verdict of each phase, and the worst phase verdict of each run.
ALTER TABLE "phases" ADD COLUMN "runtime_ms" DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE "phases" ADD COLUMN "verdict" TEXT NOT NULL DEFAULT 'valid';
ALTER TABLE "runs" ADD COLUMN "verdict" TEXT NOT NULL DEFAULT 'valid';
CREATE INDEX "runs_verdict_idx" ON "runs"("verdict");

-- Rows stored before: the same rules, once (invalid > warning > valid, a client without a verdict is valid).
UPDATE "phases" p SET "runtime_ms" = a.runtime_ms, "verdict" = a.verdict
FROM (
  SELECT c.phase_id, MAX(c.runtime_ms) AS runtime_ms,
         CASE WHEN bool_or(v.verdict = 'invalid') THEN 'invalid' WHEN bool_or(v.verdict = 'warning') THEN 'warning' ELSE 'valid' END AS verdict
  FROM "client_results" c LEFT JOIN "validity_verdicts" v ON v.client_result_id = c.id
  GROUP BY c.phase_id
) a
WHERE p.id = a.phase_id;
UPDATE "runs" r SET "verdict" = a.verdict
FROM (
  SELECT run_id, CASE WHEN bool_or(verdict = 'invalid') THEN 'invalid' WHEN bool_or(verdict = 'warning') THEN 'warning' ELSE 'valid' END AS verdict
  FROM "phases" GROUP BY run_id
) a
WHERE r.id = a.run_id;

-- The operation count the scenario set for a phase, as it stated it (per client or in total): a factor of seed 003's
-- design, so each count is its own series. NULL for a phase bounded by time only.
ALTER TABLE "phases" ADD COLUMN "operation_count" INTEGER;
ALTER TABLE "phases" ADD COLUMN "operation_count_per" TEXT;

-- A load phase's results count under the workload "load" (model/aggregate/rules.ts phaseWorkload).
UPDATE "phases" SET "workload" = 'load' WHERE "kind" = 'load';
