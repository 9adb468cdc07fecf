-- The preset a phase ran under (model/presets.ts phasePreset): the one its properties name, else the run's.
-- Seed 000 loaded non-durably and ran its workloads durably: results count under each phase's own.
ALTER TABLE "phases" ADD COLUMN "preset" TEXT;
UPDATE "phases" p SET "preset" = CASE WHEN p."properties"->>'ycsblab.preset' IN ('throughput', 'balanced', 'durable') THEN p."properties"->>'ycsblab.preset' ELSE r."preset" END
FROM "runs" r WHERE r."id" = p."run_id";
UPDATE "phases" SET "preset" = 'balanced' WHERE "preset" IS NULL;
ALTER TABLE "phases" ALTER COLUMN "preset" SET NOT NULL;
