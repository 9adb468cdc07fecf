-- A write appends its marks (api/store/aggregates/refresh.ts) instead of upserting one row per group or run. An upsert
-- of a mark a settling round had taken waited until the round committed, so every write of a group being recounted
-- stood still for the round's whole recount: sampled over a 30,000-document ingest, 50 of the 131 samples of active
-- backends were writes waiting there (docs/benchmarks.md). Appended rows take no lock another transaction holds; a
-- round takes every row of the marks it recounts (api/store/aggregates/settle.ts) and a mark appended since stays for
-- the next round, so a write still open while a round recounts is recounted once it has committed.
ALTER TABLE "dirty_groups" DROP CONSTRAINT "dirty_groups_pkey";
ALTER TABLE "dirty_groups" ADD COLUMN "seq" BIGSERIAL NOT NULL;
ALTER TABLE "dirty_groups" ADD CONSTRAINT "dirty_groups_pkey" PRIMARY KEY ("seq");
CREATE INDEX "dirty_groups_id_idx" ON "dirty_groups"("id");

ALTER TABLE "dirty_group_phases" DROP CONSTRAINT "dirty_group_phases_pkey";
ALTER TABLE "dirty_group_phases" ADD COLUMN "seq" BIGSERIAL NOT NULL;
ALTER TABLE "dirty_group_phases" ADD CONSTRAINT "dirty_group_phases_pkey" PRIMARY KEY ("seq");
CREATE INDEX "dirty_group_phases_id_idx" ON "dirty_group_phases"("id");
