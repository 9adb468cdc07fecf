-- A client result's HDR log references are a JSON column of its row, not rows of their own: each reference cost a
-- sequence value, two index entries and a foreign key check, about 43 µs of the server's time a document at ingest
-- (pg_stat_statements over a 100,000-document ingest, docs/benchmarks.md), for names only the export reads back. The
-- column holds them as ingest and import write them (api/store/ingest-tables.ts storedHdrLogs): by operation, then URI,
-- in code point order (COLLATE "C"), each once, as the table's unique key kept them. The default is a constant, so
-- adding the column rewrites no row; only results with references are updated.
ALTER TABLE "client_results" ADD COLUMN "hdr_logs" JSON NOT NULL DEFAULT '[]';

UPDATE "client_results" c
SET "hdr_logs" = r.refs
FROM (
  SELECT "client_result_id",
         json_agg(json_build_object('operation', "operation", 'uri', "uri")
                  ORDER BY "operation" COLLATE "C", "uri" COLLATE "C") AS refs
  FROM "hdr_log_refs"
  GROUP BY "client_result_id"
) r
WHERE c."id" = r."client_result_id";

DROP TABLE "hdr_log_refs";
