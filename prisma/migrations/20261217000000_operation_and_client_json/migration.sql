-- A client result's JSON parts and its operation groups' are kept as the JSON text ingest wrote, like the status series
-- (20261216000000_status_series_json): every statement reads them whole (api/store/queries/capacity.ts, series.ts,
-- aggregates/phase-operations.ts), none inside or by equality, and with no jsonb column left in either table ingest
-- inserts their rows with json_to_recordset, whose parameter is not parsed into jsonb first (every number of it into
-- numeric). Measured per 500 documents: operation groups 13-18 ms as jsonb, 8-12 as json; client results 10-12, 6.5-8.
ALTER TABLE "operation_stats" ALTER COLUMN "percentiles_us" SET DATA TYPE JSON,
  ALTER COLUMN "returns" SET DATA TYPE JSON,
  ALTER COLUMN "histogram_buckets" SET DATA TYPE JSON,
  ALTER COLUMN "time_series" SET DATA TYPE JSON,
  ALTER COLUMN "extra" SET DATA TYPE JSON;
ALTER TABLE "client_results" ALTER COLUMN "gc" SET DATA TYPE JSON,
  ALTER COLUMN "resources" SET DATA TYPE JSON,
  ALTER COLUMN "unknown_lines" SET DATA TYPE JSON,
  ALTER COLUMN "warnings" SET DATA TYPE JSON;
