-- A capacity search's step (model/capacity-search.ts) as the phase's documents carry it: its group, step, search
-- (the SLO) and role as decided. GET /capacity judges each search from its steps' stored results; other phases keep
-- null.
ALTER TABLE "phases" ADD COLUMN "capacity" JSONB;
