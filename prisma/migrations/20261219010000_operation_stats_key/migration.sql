-- An operation group's key is its client result and its name: the unique index on them becomes the primary key as it is
-- (ADD CONSTRAINT ... USING INDEX renames it and builds nothing again, so a large store is not re-indexed), and the
-- surrogate id goes. Nothing referred to it, and ingest paid for it with a sequence value and a second index entry for
-- every one of a document's groups (pg_stat_statements over a 100,000-document ingest: operation_stats was the most
-- costly insert, 54 µs a document of three rows; docs/benchmarks.md).
ALTER TABLE "operation_stats" DROP CONSTRAINT "operation_stats_pkey";
ALTER TABLE "operation_stats" ADD CONSTRAINT "operation_stats_pkey"
  PRIMARY KEY USING INDEX "operation_stats_client_result_id_operation_key";
ALTER TABLE "operation_stats" DROP COLUMN "id";
