-- A client's status series is kept as the JSON text ingest wrote (api/store/ingest-tables.ts STATUS_SERIES): no statement
-- reads inside it or compares it, and parsing each of its numbers into jsonb's numeric was most of Postgres's work at
-- ingest (perf of the backends: jsonb_in 46 % of their samples; docs/benchmarks.md). The dashboard reads it whole.
ALTER TABLE "status_series" ALTER COLUMN "points" SET DATA TYPE JSON;
